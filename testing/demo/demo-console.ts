import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createConsoleCore, type ConsoleCore } from '../../main/core/console-core';
import { demoWorkspaces } from '../../main/demo/week/demo-workspaces';

/**
 * A real console core on the generated demo workspace (both demo projects), for tests that walk
 * what the views are given: `open('inventory-api')` switches project as the switcher does.
 */
export interface DemoConsole {
  core: ConsoleCore;
  open(project: 'billing-api' | 'inventory-api'): Promise<void>;
  call<T = any>(name: string, input?: unknown): Promise<T>;
  dispose(): Promise<void>;
}

export async function openDemoConsole(): Promise<DemoConsole> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-console-'));
  const userDataDir = path.join(root, 'user-data');
  const core = await createConsoleCore({ userDataDir, host: 'browser', version: 'test', demo: demoWorkspaces }, { project: null });
  const call = async <T,>(name: string, input: unknown = {}): Promise<T> => {
    const result = await core.dispatcher.call(name, input);
    if (!result.ok) throw new Error(`${name}: ${result.error.code} ${result.error.message}`);
    return result.value as T;
  };
  return {
    core,
    call,
    open: async (project) => void (await call('workspace.open', { project: path.join(userDataDir, 'demo', project) })),
    dispose: async () => {
      await core.dispose();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
