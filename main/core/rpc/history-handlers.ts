import { HistoryService, consoleQuarantines } from '../history/history-service';
import { HistoryQueries } from '../history/history-queries';
import { commitHistoryRestore, HISTORY_RESTORE_OP, previewHistoryRestore, type RestoreContext } from '../history/restore';
import type { HumanServices } from '../human/runner';
import type { Workspace } from '../workspace/workspace';
import type { CoreContext } from './context';
import type { CallHandlers } from './dispatcher';
import { storeIndexOf } from './store-handlers';

const HISTORY_SERVICE = 'history';

/** The workspace's history recorder (started when the workspace opens, so history follows every ingest). */
export function historyOf(ctx: CoreContext, workspace: Workspace): HistoryService {
  return workspace.service(HISTORY_SERVICE, () => {
    const service = new HistoryService(storeIndexOf(workspace), { dir: workspace.cacheDir, userDataDir: ctx.options.userDataDir, role: 'app' });
    return { value: service, dispose: () => service.close() };
  });
}

async function queries(ctx: CoreContext): Promise<HistoryQueries> {
  return (await restoreContext(ctx)).queries;
}

/** History as a restore reads it: its database, its queries and the plugin's caps. */
async function restoreContext(ctx: CoreContext): Promise<RestoreContext> {
  const service = historyOf(ctx, ctx.workspaces.current);
  // Everything the index has seen is recorded first: a view that asks on a store change sees that change.
  await service.settle();
  const queries = new HistoryQueries({
    db: service.db,
    lastLooked: service.lastLooked,
    caps: service.caps,
    quarantines: () => consoleQuarantines(ctx.options.userDataDir),
    status: service.status,
  });
  return { db: service.db, queries, caps: service.caps };
}

type HistoryOps = 'history.changes' | 'history.asOf' | 'history.timeline' | 'history.forgotten' | 'history.moments' | 'history.restore.preview' | 'history.restore.commit';

export function createHistoryHandlers(ctx: CoreContext, human: HumanServices): Pick<CallHandlers, HistoryOps> {
  human.describe(HISTORY_RESTORE_OP, (p) => `restore of ${p.ids[0] ?? ''} from history to ${p.bind.tier === 'hive' ? 'the hive' : p.bind.tier === 'link' ? 'the link store' : "the project's knowledge"}, with status ${p.bind.restore_status ?? ''}`);
  const paths = () => ctx.workspaces.current.paths;
  // Record from the moment a workspace opens, not from the first history query.
  ctx.workspaces.onOpened((workspace) => {
    try {
      historyOf(ctx, workspace);
    } catch (error) {
      console.warn('[history] not recording this workspace:', (error as Error).message);
    }
  });
  return {
    'history.changes': async (input) => (await queries(ctx)).changes(input.since, input.until),
    'history.asOf': async (input) => (await queries(ctx)).asOf(input.moment, input.offset, input.limit),
    'history.timeline': async (input) => (await queries(ctx)).timeline(input.id),
    'history.forgotten': async () => (await queries(ctx)).forgotten(),
    'history.moments': async () => (await queries(ctx)).moments(),
    'history.restore.preview': async (input, caller) => previewHistoryRestore(human, caller, paths(), await restoreContext(ctx), input),
    'history.restore.commit': async (input, caller) => commitHistoryRestore(human, caller, paths(), await restoreContext(ctx), input),
  };
}
