import type { DemoWorkspaces } from '../workspace/demo-port';
import type { WorkspaceManager } from '../workspace/workspace-manager';

export interface CoreOptions {
  userDataDir: string;
  host: 'electron' | 'browser';
  version: string;
  /** The seeded demo workspace (`main/demo/`), opened when no project is named; hosts pass it in. */
  demo?: DemoWorkspaces;
  /** Tuning for human-only writes (tests shorten the lock wait and the revert re-check). */
  human?: { lockWaitMs?: number; revertCheckMs?: number };
}

/** What every area's handlers may use. Handlers hold no state of their own beyond this. */
export interface CoreContext {
  readonly options: CoreOptions;
  readonly workspaces: WorkspaceManager;
  /** Disposers run when the core shuts down (global services such as OpenCode connections). */
  onDispose(dispose: () => void | Promise<void>): void;
}
