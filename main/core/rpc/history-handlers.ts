import { ConsoleError } from '../../../shared/contract';
import { HistoryService, consoleQuarantines } from '../history/history-service';
import { HistoryQueries } from '../history/history-queries';
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
  const service = historyOf(ctx, ctx.workspaces.current);
  await service.ready;
  await service.recordedSoFar();
  return new HistoryQueries({
    db: service.db,
    lastLooked: service.lastLooked,
    caps: service.caps,
    quarantines: () => consoleQuarantines(ctx.options.userDataDir),
    status: service.status,
  });
}

type HistoryOps = 'history.changes' | 'history.asOf' | 'history.timeline' | 'history.forgotten' | 'history.moments' | 'history.restore.preview' | 'history.restore.commit';

// TEMPORARY (this session, replaced by the history-restore branch before anything lands).
const notYet = () => {
  throw new ConsoleError('unavailable', 'history restore is being built');
};

export function createHistoryHandlers(ctx: CoreContext): Pick<CallHandlers, HistoryOps> {
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
    'history.restore.preview': notYet,
    'history.restore.commit': notYet,
  };
}
