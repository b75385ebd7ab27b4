import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createConsoleCore, type ConsoleCore } from '../../main/core/console-core';

/**
 * A real console core on a project and hive, for tests that call the dispatcher as the views
 * do. `cleanups` receives what disposes the core and removes its user-data folder.
 */
export async function openCore(project: string, hive: string, cleanups: (() => Promise<void> | void)[], prefix = 'core-calls-ud-'): Promise<ConsoleCore> {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const core = await createConsoleCore({ userDataDir, host: 'browser', version: 'test' }, { project, hive });
  cleanups.push(async () => {
    await core.dispose();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  });
  return core;
}

/** One dispatcher call that must succeed; its value (typed loosely, as tests inspect it). */
export async function callOk<T = any>(core: ConsoleCore, name: string, input: unknown = {}): Promise<T> {
  const result = await core.dispatcher.call(name, input);
  if (!result.ok) throw new Error(`${name} failed: ${result.error.message} ${JSON.stringify(result.error.issues ?? [])}`);
  return result.value as T;
}
