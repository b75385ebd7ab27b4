import { parseArgs } from 'node:util';
import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolveConsoleUserDataDir } from '../core/platform/paths/platform-data-dir';

interface WorkspaceArgs {
  project: string | null;
  hive: string | undefined;
  userDataDir: string;
}

/** The options every workspace-opening command shares: --project, --hive, --user-data. */
const workspaceOptions = {
  project: { type: 'string' },
  hive: { type: 'string' },
  'user-data': { type: 'string' },
} as const;

export function toWorkspaceArgs(values: { project?: string | undefined; hive?: string | undefined; 'user-data'?: string | undefined }): WorkspaceArgs {
  return {
    project: values.project ? path.resolve(values.project) : null,
    hive: values.hive ? path.resolve(values.hive) : undefined,
    userDataDir: path.resolve(values['user-data'] ?? resolveConsoleUserDataDir()),
  };
}

export function parseWorkspaceCommand<T extends Record<string, { type: 'string' | 'boolean' }>>(argv: string[], extra: T) {
  return parseArgs({ args: argv, options: { ...workspaceOptions, ...extra }, allowPositionals: false, strict: true });
}

export const repoRoot = (): string => path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export function packageVersion(): string {
  try {
    return JSON.parse(fs.readFileSync(path.join(repoRoot(), 'package.json'), 'utf8')).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** The built renderer; SWARM_CONSOLE_RENDERER_DIR points at one built elsewhere (tests of a clone not built yet). */
export const builtRendererDir = (): string => process.env.SWARM_CONSOLE_RENDERER_DIR ?? path.join(repoRoot(), 'out', 'renderer');
