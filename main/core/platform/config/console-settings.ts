import fs from 'node:fs';
import path from 'node:path';
import { MAX_CONFIG_BYTES } from './defaults';

/**
 * The console's own settings, apart from the plugin's (load-config.ts reads those): one small JSON
 * file in the console's user-data folder, `<user-data>/console-settings.json`. Never the plugin's
 * `opencode-swarm.json`: a key the plugin does not know has no place in its config.
 *
 *   { "history": { "budget_mb": 200 } }
 */
export const CONSOLE_SETTINGS_FILE = 'console-settings.json';

export const DEFAULT_HISTORY_BUDGET_MB = 200;
/** Below this, history could not keep even a day of a busy store; above, a typo (GB meant as MB). */
const BUDGET_RANGE_MB: [number, number] = [16, 1024 * 1024];

export interface ConsoleSettings {
  history: { budgetBytes: number; budgetMb: number };
  file: string;
  /** What was wrong with the file or a value (the default is used instead), or null. */
  problems: string[];
}

/** Reads the console's settings; a missing file is the defaults, a bad one is the defaults with the reason. */
export function loadConsoleSettings(userDataDir: string): ConsoleSettings {
  const file = path.join(userDataDir, CONSOLE_SETTINGS_FILE);
  const problems: string[] = [];
  let budgetMb = DEFAULT_HISTORY_BUDGET_MB;
  let parsed: unknown = null;
  try {
    const stat = fs.statSync(file);
    if (stat.size > MAX_CONFIG_BYTES) problems.push(`${file} is ${stat.size} bytes (over ${MAX_CONFIG_BYTES}); defaults used`);
    else parsed = JSON.parse(fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') problems.push(`${file} could not be read (${code ?? (error as Error).message.slice(0, 120)}); defaults used`);
  }
  const history = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>).history : undefined;
  const value = history !== null && typeof history === 'object' ? (history as Record<string, unknown>).budget_mb : undefined;
  if (value !== undefined) {
    if (typeof value !== 'number' || !Number.isFinite(value)) problems.push(`history.budget_mb in ${file} must be a number of megabytes (got ${JSON.stringify(value)?.slice(0, 40)}); ${DEFAULT_HISTORY_BUDGET_MB} MB used`);
    else if (value < BUDGET_RANGE_MB[0] || value > BUDGET_RANGE_MB[1]) problems.push(`history.budget_mb in ${file} must be between ${BUDGET_RANGE_MB[0]} and ${BUDGET_RANGE_MB[1]} (got ${value}); ${DEFAULT_HISTORY_BUDGET_MB} MB used`);
    else budgetMb = value;
  }
  return { history: { budgetMb, budgetBytes: Math.round(budgetMb * 1024 * 1024) }, file, problems };
}
