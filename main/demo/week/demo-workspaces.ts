import type { DemoWorkspaces } from '../../core/workspace/demo-port';
import { demoHiveFor } from '../ensure-demo';
import { RELEASED_PROJECT, RELEASED_WORKTREE } from '../released/ids';
import { ensureDemoWithWeek } from './ensure-demo-week';
import { atWorkSeconds, startPluginAtWork } from './plugin-at-work';

/** The seeded demo, as the core's `DemoWorkspaces` port: passed in by the CLI and the Electron bootstrap. */
export const demoWorkspaces: DemoWorkspaces = {
  async ensure(userDataDir) {
    const { location } = await ensureDemoWithWeek(userDataDir);
    return { defaultProject: location.projectDir, hiveFor: (projectDir) => demoHiveFor(location, projectDir) };
  },
  noteFor(name) {
    return [RELEASED_PROJECT, RELEASED_WORKTREE].includes(name as never)
      ? 'Written as the released opencode-swarm 7.103.2 writes: legacy receipts only, gate warnings, a linked worktree pair, its own hive, and a scripted week of plugin writes in its history.'
      : 'Every format the console reads, including V2 receipts and logged denials the released plugin does not write yet, and a scripted week of plugin writes in its history.';
  },
  atWork(userDataDir, projectDir) {
    const seconds = atWorkSeconds();
    return seconds === null ? null : startPluginAtWork(userDataDir, projectDir, seconds * 1000);
  },
};
