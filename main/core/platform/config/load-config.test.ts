import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSwarmConfig, userConfigPath } from './load-config';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

function setup(user: string | null, project: string | null) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'config-'));
  roots.push(root);
  const env = { XDG_CONFIG_HOME: path.join(root, 'xdg') };
  const projectDir = path.join(root, 'project');
  fs.mkdirSync(projectDir);
  if (user !== null) {
    fs.mkdirSync(path.join(root, 'xdg', 'opencode'), { recursive: true });
    fs.writeFileSync(path.join(root, 'xdg', 'opencode', 'opencode-swarm.json'), user);
  }
  if (project !== null) {
    fs.mkdirSync(path.join(projectDir, '.opencode'));
    fs.writeFileSync(path.join(projectDir, '.opencode', 'opencode-swarm.json'), project);
  }
  const config = loadSwarmConfig({ projectDir, env, homedir: () => path.join(root, 'home') });
  const setting = (section: string, key: string) => config.settings.find((s) => s.section === section && s.key === key);
  return { config, setting, root };
}

describe('loadSwarmConfig', () => {
  it('uses $XDG_CONFIG_HOME, else os.homedir()/.config (not HOME)', () => {
    expect(userConfigPath({ env: { XDG_CONFIG_HOME: '/x' }, homedir: () => '/h' })).toBe(path.join('/x', 'opencode', 'opencode-swarm.json'));
    expect(userConfigPath({ env: { HOME: '/ignored' }, homedir: () => '/h' })).toBe(path.join('/h', '.config', 'opencode', 'opencode-swarm.json'));
  });

  it('gives the defaults, including doc-only settings marked as such, when no file exists', () => {
    const { config, setting } = setup(null, null);
    expect(config.sources.map((s) => [s.kind, s.exists, s.problem])).toEqual([
      ['user', false, null],
      ['project', false, null],
    ]);
    expect(setting('knowledge', 'swarm_max_entries')).toMatchObject({ value: 100, origin: 'default', docOnly: false });
    expect(setting('knowledge_application', 'max_gate_denials')).toMatchObject({ value: 5, docOnly: true });
    expect(setting('knowledge', 'receipt_close_grace_days')).toMatchObject({ value: 7, docOnly: true });
    expect(setting('curator', 'min_skill_confidence')?.value).toBe(0.7);
    expect(config.values.knowledge_application.mode).toBe('warn');
  });

  it('deep-merges the project file over the user file', () => {
    const { setting } = setup(
      JSON.stringify({ knowledge: { swarm_max_entries: 50, hive_max_entries: 300, enrichment: { max_calls_per_day: 5 } }, curator: { enabled: false } }),
      '\uFEFF' + JSON.stringify({ knowledge: { swarm_max_entries: 70 }, knowledge_application: { mode: 'enforce' } }),
    );
    expect(setting('knowledge', 'swarm_max_entries')).toMatchObject({ value: 70, origin: 'project' });
    expect(setting('knowledge', 'hive_max_entries')).toMatchObject({ value: 300, origin: 'user' });
    expect(setting('knowledge', 'enrichment')?.value).toEqual({ max_calls_per_day: 5, quota_window: 'utc' });
    expect(setting('curator', 'enabled')).toMatchObject({ value: false, origin: 'user' });
    expect(setting('knowledge_application', 'mode')).toMatchObject({ value: 'enforce', origin: 'project' });
  });

  it('explains commented, invalid and oversized files and falls back to defaults', () => {
    const commented = setup('{\n  // my settings\n  "knowledge": {"swarm_max_entries": 5}\n}', '{"knowledge": ');
    expect(commented.config.sources[0]?.problem).toMatch(/user config is not valid JSON \(comments are not allowed: the plugin reads plain JSON\)/);
    expect(commented.config.sources[1]?.problem).toMatch(/project config is not valid JSON/);
    expect(commented.setting('knowledge', 'swarm_max_entries')).toMatchObject({ value: 100, origin: 'default' });

    const huge = setup(JSON.stringify({ knowledge: { swarm_max_entries: 5 }, pad: 'x'.repeat(110 * 1024) }), null);
    expect(huge.config.sources[0]?.problem).toMatch(/over the plugin's 102400-byte limit/);
    expect(huge.setting('knowledge', 'swarm_max_entries')?.value).toBe(100);
  });

  it('reports values outside what the plugin accepts and shows the default in force', () => {
    const { setting } = setup(JSON.stringify({ knowledge: { swarm_max_entries: 0, max_inject_count: 'many' }, knowledge_application: { mode: 'block' } }), null);
    expect(setting('knowledge', 'swarm_max_entries')).toMatchObject({ value: 100, origin: 'default', problem: 'must be between 1 and 10000' });
    expect(setting('knowledge', 'max_inject_count')?.problem).toBe('expected number, got string');
    expect(setting('knowledge_application', 'mode')?.problem).toBe('must be one of warn, enforce');
  });
});
