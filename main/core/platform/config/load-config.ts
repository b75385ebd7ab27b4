import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MAX_CONFIG_BYTES, SECTIONS, type SectionName, type SettingSpec } from './defaults';

interface ConfigSource {
  kind: 'user' | 'project';
  path: string;
  exists: boolean;
  /** Why the file was not used (null when it was used or does not exist). */
  problem: string | null;
}

interface SettingInForce {
  section: SectionName;
  key: string;
  value: unknown;
  default: unknown;
  /** Where the value comes from. */
  origin: 'default' | 'user' | 'project';
  docOnly: boolean;
  /** Set when a configured value is outside what the plugin's schema accepts (the plugin then falls back). */
  problem: string | null;
}

interface SwarmConfig {
  sources: ConfigSource[];
  settings: SettingInForce[];
  /** Quick lookup: section → key → value in force. */
  values: Record<SectionName, Record<string, unknown>>;
}

export interface ConfigLocations {
  projectDir: string;
  env?: Record<string, string | undefined>;
  /** The plugin uses os.homedir() (not HOME) for the user config. */
  homedir?: () => string;
}

/** User config `$XDG_CONFIG_HOME/opencode/opencode-swarm.json` (default `~/.config/...`, same on Windows). */
export function userConfigPath({ env = process.env, homedir = os.homedir }: Omit<ConfigLocations, 'projectDir'> = {}): string {
  const base = env.XDG_CONFIG_HOME || path.join(homedir(), '.config');
  return path.join(base, 'opencode', 'opencode-swarm.json');
}

const projectConfigPath = (projectDir: string) => path.join(projectDir, '.opencode', 'opencode-swarm.json');

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Reads one config file as the plugin does: plain JSON, BOM stripped, ≤100 KB, no comments. */
function readConfigFile(kind: ConfigSource['kind'], file: string): { source: ConfigSource; value: Json | null } {
  const source: ConfigSource = { kind, path: file, exists: false, problem: null };
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') source.problem = `cannot read ${kind} config (${code}); defaults used for it`;
    return { source, value: null };
  }
  source.exists = true;
  if (!stat.isFile()) return { source: { ...source, problem: `${kind} config path is not a file; ignored` }, value: null };
  if (stat.size > MAX_CONFIG_BYTES) {
    return { source: { ...source, problem: `${kind} config is ${stat.size} bytes, over the plugin's ${MAX_CONFIG_BYTES}-byte limit; ignored` }, value: null };
  }
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  } catch (error) {
    return { source: { ...source, problem: `cannot read ${kind} config (${(error as NodeJS.ErrnoException).code}); ignored` }, value: null };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const commented = /^\s*\/\/|\/\*/m.test(text) ? ' (comments are not allowed: the plugin reads plain JSON)' : '';
    return { source: { ...source, problem: `${kind} config is not valid JSON${commented}: ${(error as Error).message.slice(0, 120)}; ignored` }, value: null };
  }
  if (!isObject(parsed)) return { source: { ...source, problem: `${kind} config is not a JSON object; ignored` }, value: null };
  return { source, value: parsed };
}

/** Project over user, objects merged key by key, arrays and scalars replaced. */
function deepMerge(base: Json, over: Json): Json {
  const out: Json = { ...base };
  for (const [key, value] of Object.entries(over)) {
    out[key] = isObject(value) && isObject(out[key]) ? deepMerge(out[key] as Json, value) : value;
  }
  return out;
}

function problemOf(spec: SettingSpec, value: unknown): string | null {
  const expected = spec.default;
  if (expected === null || value === undefined) return null;
  if (Array.isArray(expected)) return Array.isArray(value) ? null : `expected a list, got ${typeof value}`;
  if (typeof expected === 'object') return isObject(value) ? null : `expected an object, got ${typeof value}`;
  if (typeof value !== typeof expected) return `expected ${typeof expected}, got ${Array.isArray(value) ? 'array' : typeof value}`;
  if (spec.range && typeof value === 'number' && (value < spec.range[0] || value > spec.range[1])) {
    return `must be between ${spec.range[0]} and ${spec.range[1]}`;
  }
  if (spec.allowed && typeof value === 'string' && !spec.allowed.includes(value)) return `must be one of ${spec.allowed.join(', ')}`;
  return null;
}

/**
 * The knowledge, knowledge_application, curator and skill_improver settings in force for a
 * project. A setting whose configured value the plugin's schema would reject is reported with
 * a problem and shown at its default (the plugin falls back rather than use it).
 */
export function loadSwarmConfig(locations: ConfigLocations): SwarmConfig {
  const user = readConfigFile('user', userConfigPath(locations));
  const project = readConfigFile('project', projectConfigPath(locations.projectDir));
  const merged = deepMerge(user.value ?? {}, project.value ?? {});
  const settings: SettingInForce[] = [];
  const values = {} as SwarmConfig['values'];
  for (const [section, specs] of Object.entries(SECTIONS) as [SectionName, Record<string, SettingSpec>][]) {
    values[section] = {};
    const configured = isObject(merged[section]) ? (merged[section] as Json) : {};
    const fromProject = isObject(project.value?.[section]) ? (project.value?.[section] as Json) : {};
    for (const [key, spec] of Object.entries(specs)) {
      const has = Object.hasOwn(configured, key);
      const problem = has ? problemOf(spec, configured[key]) : null;
      let value = has && !problem ? configured[key] : spec.default;
      if (has && !problem && isObject(spec.default) && isObject(value)) value = { ...spec.default, ...value };
      const origin = !has || problem ? 'default' : Object.hasOwn(fromProject, key) ? 'project' : 'user';
      settings.push({ section, key, value, default: spec.default, origin, docOnly: spec.docOnly === true, problem });
      values[section][key] = value;
    }
  }
  return { sources: [user.source, project.source], settings, values };
}
