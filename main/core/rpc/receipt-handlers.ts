import { factsFromIndex } from '../receipts/directive-facts';
import { funnelOf, obligationsOf, phasesOf, tracesPage } from '../receipts/receipts-model';
import { ReceiptsService } from '../receipts/receipts-service';
import type { Workspace } from '../workspace/workspace';
import type { CoreContext } from './context';
import type { CallHandlers, SubscriptionHandlers } from './dispatcher';
import { storeIndexOf } from './store-handlers';

const RECEIPTS_SERVICE = 'receipts';

/** The workspace's receipts (verification, model, watcher), created on first use. */
export function receiptsOf(workspace: Workspace): ReceiptsService {
  return workspace.service(RECEIPTS_SERVICE, () => {
    const { projectDir, swarmDir, knowledgeDir } = workspace.paths;
    // The knowledge records (from the store index) give legacy displays their priority and enforcement.
    const facts = async (ids: readonly string[]) => {
      const index = storeIndexOf(workspace);
      await index.ready;
      return index.fresh(() => factsFromIndex(index.db, ids));
    };
    const service = new ReceiptsService({ projectDir, swarmDir, knowledgeDir, allowSymlinksOutside: workspace.paths.allowSymlinksOutside }, { facts });
    return { value: service, dispose: () => service.dispose() };
  });
}

type ReceiptCalls = 'receipts.integrity' | 'receipts.traces' | 'receipts.obligations' | 'receipts.funnel' | 'receipts.phases' | 'receipts.sources';

/** Handlers of the receipts area (shared/contract/receipts.ts). Read-only. */
export function createReceiptHandlers(ctx: CoreContext): Pick<CallHandlers, ReceiptCalls> & Pick<SubscriptionHandlers, 'receipts.changes'> {
  const model = () => receiptsOf(ctx.workspaces.current).model();
  return {
    // Every load of the view verifies again (reusing one finished within the last second, e.g. the
    // re-verification a change event just reported); the other queries share that verification.
    'receipts.integrity': async () => (await receiptsOf(ctx.workspaces.current).recent(1000)).integrity,
    'receipts.traces': async (input) => tracesPage(await model(), input),
    'receipts.obligations': async (input) => obligationsOf(await model(), input, Date.now()),
    'receipts.funnel': async (input) => funnelOf(await model(), input),
    'receipts.phases': async () => phasesOf(await model(), Date.now()),
    'receipts.sources': async () => ({ sources: (await model()).sources }),
    'receipts.changes': (_input, emit) => {
      // Follow whichever workspace is open: re-attach when the operator switches project.
      let detach = receiptsOf(ctx.workspaces.current).onChange(emit);
      const stopSwitch = ctx.workspaces.onOpened((workspace) => {
        detach();
        detach = receiptsOf(workspace).onChange(emit);
      });
      return () => {
        stopSwitch();
        detach();
      };
    },
  };
}
