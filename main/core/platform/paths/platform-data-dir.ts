import os from 'node:os';
import path from 'node:path';

export interface PlatformEnv {
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  homedir: () => string;
}

export const currentPlatformEnv = (): PlatformEnv => ({ platform: process.platform, env: process.env, homedir: os.homedir });

/**
 * The plugin's `<dataDir>` (hive store, link stores), in the exact order `resolveHiveKnowledgePath()`
 * uses: `HOME` wins over `os.homedir()` on every platform, macOS ignores XDG_DATA_HOME.
 */
export function resolvePluginDataDir({ platform, env, homedir }: PlatformEnv = currentPlatformEnv()): string {
  const home = env.HOME || homedir();
  if (platform === 'win32') {
    const localAppData = env.LOCALAPPDATA || path.win32.join(home, 'AppData', 'Local');
    return path.win32.join(localAppData, 'opencode-swarm', 'Data');
  }
  if (platform === 'darwin') return path.posix.join(home, 'Library', 'Application Support', 'opencode-swarm');
  const dataHome = env.XDG_DATA_HOME || path.posix.join(home, '.local', 'share');
  return path.posix.join(dataHome, 'opencode-swarm');
}

/** Where the console keeps its own state (index caches, demo workspace, recent projects). */
export function resolveConsoleUserDataDir({ platform, env, homedir }: PlatformEnv = currentPlatformEnv()): string {
  if (env.SWARM_CONSOLE_USER_DATA) return env.SWARM_CONSOLE_USER_DATA;
  const home = env.HOME || homedir();
  if (platform === 'win32') return path.win32.join(env.APPDATA || path.win32.join(home, 'AppData', 'Roaming'), 'swarm-knowledge-console');
  if (platform === 'darwin') return path.posix.join(home, 'Library', 'Application Support', 'swarm-knowledge-console');
  return path.posix.join(env.XDG_CONFIG_HOME || path.posix.join(home, '.config'), 'swarm-knowledge-console');
}
