import { describe, expect, it } from 'vitest';
import { resolvePluginDataDir } from './platform-data-dir';

const env = (platform: NodeJS.Platform, vars: Record<string, string>) => ({ platform, env: vars, homedir: () => '/os-home' });

describe('resolvePluginDataDir follows the plugin order', () => {
  it('uses XDG_DATA_HOME on Linux', () => {
    expect(resolvePluginDataDir(env('linux', { XDG_DATA_HOME: '/xdg', HOME: '/h' }))).toBe('/xdg/opencode-swarm');
  });
  it('falls back to HOME/.local/share, then os.homedir()', () => {
    expect(resolvePluginDataDir(env('linux', { HOME: '/h' }))).toBe('/h/.local/share/opencode-swarm');
    expect(resolvePluginDataDir(env('linux', {}))).toBe('/os-home/.local/share/opencode-swarm');
  });
  it('ignores XDG_DATA_HOME on macOS', () => {
    expect(resolvePluginDataDir(env('darwin', { XDG_DATA_HOME: '/xdg', HOME: '/h' }))).toBe('/h/Library/Application Support/opencode-swarm');
  });
  it('uses LOCALAPPDATA on Windows, else HOME\\AppData\\Local', () => {
    expect(resolvePluginDataDir(env('win32', { LOCALAPPDATA: 'C:\\L' }))).toBe('C:\\L\\opencode-swarm\\Data');
    expect(resolvePluginDataDir(env('win32', { HOME: 'C:\\h' }))).toBe('C:\\h\\AppData\\Local\\opencode-swarm\\Data');
  });
});
