import { ConsoleError } from '../../../shared/contract';
import { MAX_EXPORT_ROWS } from '../../../shared/contract/knowledge';
import { exportEntries } from '../store-index/entry-export';
import { listEntries } from '../store-index/entry-queries';
import { listDirectives } from '../knowledge/directive-list';
import { entryDetail } from '../knowledge/entry-detail';
import { csvExport, jsonlExport } from '../knowledge/export-entries';
import { KnowledgeService } from '../knowledge/knowledge-service';
import { TimeSlicer } from '../platform/util/time-slicer';
import type { Workspace } from '../workspace/workspace';
import type { CoreContext } from './context';
import type { CallHandlers } from './dispatcher';
import { storeIndexOf } from './store-handlers';

const KNOWLEDGE_SERVICE = 'knowledge';

/** The workspace's knowledge model, reading the stores layer's index and warming itself as it changes. */
export function knowledgeOf(workspace: Workspace): KnowledgeService {
  return workspace.service(KNOWLEDGE_SERVICE, () => {
    const service = new KnowledgeService(storeIndexOf(workspace), workspace.paths.projectDir);
    return { value: service, dispose: () => service.dispose() };
  });
}

type KnowledgeOps =
  | 'knowledge.thresholds'
  | 'knowledge.detail'
  | 'knowledge.markers'
  | 'knowledge.rows'
  | 'knowledge.inboxes'
  | 'knowledge.directives'
  | 'knowledge.previewInjection'
  | 'knowledge.export';

const stamp = () => new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);

/** Handlers of the knowledge area (shared/contract/knowledge.ts). */
export function createKnowledgeHandlers(ctx: CoreContext): Pick<CallHandlers, KnowledgeOps> {
  const service = () => knowledgeOf(ctx.workspaces.current);
  return {
    'knowledge.thresholds': () => service().thresholds(),
    // The entry's line is read back from its store: a file changed meanwhile is re-read and the detail asked again.
    'knowledge.detail': ({ id, tier }) =>
      storeIndexOf(ctx.workspaces.current).fresh(async () => {
        // Re-opened on unchanged stores: answered from the index while the model is rebuilt.
        const kept = await service().detailFromDisk(id, tier);
        if (kept) return kept;
        const model = await service().model();
        const entry = model.find(id, tier);
        if (!entry) throw new ConsoleError('not_found', `No knowledge entry with id ${id}${tier ? ` in the ${tier} tier` : ''}`);
        const counterparts = entry.collection === 'rejected' ? [] : await model.counterpartsSliced(entry, new TimeSlicer());
        return entryDetail(model, entry, () => counterparts);
      }),
    'knowledge.markers': ({ rids }) => service().markers(rids),
    'knowledge.rows': async (input) => {
      const index = storeIndexOf(ctx.workspaces.current);
      await index.ready;
      const page = await index.fresh(() => listEntries(index.db, index.columns.entries, input));
      // Markers by the rids of this very page: a store rewritten after this read cannot pair a row with another entry's markers.
      const { markers, asOf } = await service().markers(page.items.map((item) => item.rid));
      return { ...page, items: page.items.map((item) => ({ ...item, markers: markers[String(item.rid)] ?? null })), asOf };
    },
    'knowledge.inboxes': () => service().inboxes(),
    'knowledge.directives': async (query) => (await service().directivesFromDisk(query)) ?? listDirectives(await service().model(), query),
    'knowledge.previewInjection': (input) => service().previewInjection(input),
    'knowledge.export': async ({ format, filter, sort }) => {
      const index = storeIndexOf(ctx.workspaces.current);
      await index.ready;
      // One query for the whole set on a read-only connection, built in time slices.
      const target = { db: index.db, file: index.index.file };
      const slicer = new TimeSlicer();
      const base = `knowledge-${stamp()}`;
      // JSON Lines read each line back from its store file: a file changed meanwhile is re-read and the export starts over.
      const built = await index.fresh(async () =>
        format === 'csv'
          ? { filename: `${base}.csv`, mime: 'text/csv', ...(await csvExport(exportEntries(target, { filter, sort }, 'items', slicer), MAX_EXPORT_ROWS, slicer)) }
          : { filename: `${base}.jsonl`, mime: 'application/x-ndjson', ...(await jsonlExport(exportEntries(target, { filter, sort }, 'raw', slicer), MAX_EXPORT_ROWS, slicer)) },
      );
      return { ...built, truncated: built.total > built.count };
    },
  };
}
