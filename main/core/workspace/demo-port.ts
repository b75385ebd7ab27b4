/**
 * The demo workspace, as the core sees it: a port. The generator lives in `main/demo/` and is
 * handed to the core by its hosts (the CLI and the Electron bootstrap) through `CoreOptions.demo`;
 * the core never imports it, so a build without the demo opens real projects only.
 */
export interface DemoWorkspaces {
  /** Generates (or refreshes) the demo under `<userData>/demo`; idempotent and cheap when current. */
  ensure(userDataDir: string): Promise<DemoLayout>;
  /** Which plugin shape a demo project stands for, in one sentence for the project switcher. */
  noteFor(projectName: string): string;
  /**
   * The demo's plugin writing while the console watches (when the host's settings ask for it), for a demo
   * project only; stopped when the workspace closes. null: not asked for, or not a demo project.
   */
  atWork?(userDataDir: string, projectDir: string): { stop(): Promise<void> } | null;
}

export interface DemoLayout {
  /** The project opened when no project is named. */
  defaultProject: string;
  /** The hive a demo project belongs to (demo projects may have hives of their own). */
  hiveFor(projectDir: string): string;
}
