import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CONSOLE_SETTINGS_FILE, DEFAULT_HISTORY_BUDGET_MB, loadConsoleSettings } from './console-settings';

/** The console's own settings file: the history budget, and bad input that falls back with a clear reason. */
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function userData(content?: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-settings-'));
  dirs.push(dir);
  if (content !== undefined) fs.writeFileSync(path.join(dir, CONSOLE_SETTINGS_FILE), content);
  return dir;
}

describe('the console settings', () => {
  it('gives history a 200 MB budget when there is no settings file', () => {
    const settings = loadConsoleSettings(userData());
    expect(settings.history).toEqual({ budgetMb: DEFAULT_HISTORY_BUDGET_MB, budgetBytes: 200 * 1024 * 1024 });
    expect(settings.problems).toEqual([]);
  });

  it('reads history.budget_mb', () => {
    const settings = loadConsoleSettings(userData('\uFEFF{"history": {"budget_mb": 64}}'));
    expect(settings.history.budgetBytes).toBe(64 * 1024 * 1024);
    expect(settings.problems).toEqual([]);
  });

  it.each([
    ['not JSON', '{"history": {"budget_mb": 64', /could not be read/],
    ['a string', '{"history": {"budget_mb": "64 MB"}}', /must be a number of megabytes \(got "64 MB"\); 200 MB used/],
    ['too small', '{"history": {"budget_mb": 1}}', /must be between 16 and 1048576 \(got 1\); 200 MB used/],
  ])('falls back to 200 MB and says why when the budget is %s', (_, content, problem) => {
    const settings = loadConsoleSettings(userData(content));
    expect(settings.history.budgetMb).toBe(DEFAULT_HISTORY_BUDGET_MB);
    expect(settings.problems).toEqual([expect.stringMatching(problem)]);
  });
});
