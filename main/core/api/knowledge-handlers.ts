import { ConsoleError } from '../../../shared/contract';
import { MAX_EXPORT_ROWS } from '../../../shared/contract/knowledge';
import { listDirectives } from '../knowledge/directive-list';
import { entryDetail } from '../knowledge/entry-detail';
import { toCsv, toJsonl } from '../knowledge/export-entries';
import { rawLinesByRid } from '../knowledge/from-index';
import { buildInboxes } from '../knowledge/inbox-list';
import { previewInjection } from '../knowledge/injection-preview';
import { KnowledgeService } from '../knowledge/knowledge-service';
import type { Workspace } from '../workspace/workspace';
import type { CoreContext } from './context';
import type { CallHandlers } from './dispatcher';
import { createStoreHandlers, storeIndexOf } from './store-handlers';

export const KNOWLEDGE_SERVICE = 'knowledge';

/** The workspace's knowledge model cache, reading the stores layer's index. */
export function knowledgeOf(workspace: Workspace): KnowledgeService {
  return workspace.service(KNOWLEDGE_SERVICE, () => ({
    value: new KnowledgeService(async () => {
      const index = storeIndexOf(workspace);
      await index.ready;
      return index.db;
    }, workspace.paths.projectDir),
  }));
}

type KnowledgeOps =
  | 'knowledge.thresholds'
  | 'knowledge.detail'
  | 'knowledge.markers'
  | 'knowledge.inboxes'
  | 'knowledge.directives'
  | 'knowledge.previewInjection'
  | 'knowledge.export';

const EXPORT_PAGE = 2_000;

const stamp = () => new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);

/** Handlers of the knowledge area (shared/contract/knowledge.ts). */
export function createKnowledgeHandlers(ctx: CoreContext): Pick<CallHandlers, KnowledgeOps> {
  const service = () => knowledgeOf(ctx.workspaces.current);
  // The export reuses the stores area's own query (its filter, sort and search), called in-process.
  const stores = createStoreHandlers(ctx);
  return {
    'knowledge.thresholds': () => service().thresholds(),
    'knowledge.detail': async ({ id, tier }) => {
      const model = await service().model();
      const entry = model.find(id, tier);
      if (!entry) throw new ConsoleError('not_found', `No knowledge entry with id ${id}${tier ? ` in the ${tier} tier` : ''}`);
      return entryDetail(model, entry);
    },
    'knowledge.markers': ({ rids }) => service().markers(rids),
    'knowledge.inboxes': async () => {
      const model = await service().model();
      return model.cached('inboxes', () => buildInboxes(model));
    },
    'knowledge.directives': async (query) => listDirectives(await service().model(), query),
    'knowledge.previewInjection': async ({ headroomPercent, phase, agent, tool, filePaths, taskText, projectName }) => {
      const model = await service().model();
      const project = projectName ?? model.lessons().find((e) => e.tier !== 'hive' && typeof e.value.project_name === 'string')?.value.project_name;
      return previewInjection(model.injectionSources(), { phase, agent, tool, filePaths, taskText, headroomPercent, projectName: project as string | undefined }, model.thresholds);
    },
    'knowledge.export': async ({ format, filter, sort }) => {
      // Paged like the table: the stores query keeps its own limits on one call's size.
      const items: Awaited<ReturnType<(typeof stores)['stores.entries']>>['items'] = [];
      let total = 0;
      do {
        const page = await stores['stores.entries']({ offset: items.length, limit: EXPORT_PAGE, sort, filter, facets: false });
        total = page.total;
        items.push(...page.items);
        if (page.items.length === 0) break;
      } while (items.length < Math.min(total, MAX_EXPORT_ROWS));
      const index = storeIndexOf(ctx.workspaces.current);
      const page = { items: items.slice(0, MAX_EXPORT_ROWS), total };
      const count = page.items.length;
      const base = `knowledge-${stamp()}`;
      const result =
        format === 'csv'
          ? { filename: `${base}.csv`, mime: 'text/csv', content: toCsv(page.items) }
          : { filename: `${base}.jsonl`, mime: 'application/x-ndjson', content: toJsonl(rawLinesByRid(index.db, page.items.map((i) => i.rid))) };
      return { ...result, count, total: page.total, truncated: page.total > count };
    },
  };
}
