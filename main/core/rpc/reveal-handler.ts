import { ConsoleError } from '../../../shared/contract';
import type { HumanServices } from '../human/runner';
import { findCredentials } from '../platform/util/credentials';
import { getEntry } from '../store-index/entry-queries';
import { storeIndexOf } from './store-handlers';
import type { CoreContext } from './context';
import type { CallHandlers } from './dispatcher';

/**
 * `stores.reveal`: one entry's text with its credentials unmasked, for the person who asked in the
 * detail pane. Each reveal goes into the console's audit log with the entry, its file and line
 * and the kinds of credential shown — never the text itself.
 */
export function createRevealHandler(ctx: CoreContext, human: HumanServices): Pick<CallHandlers, 'stores.reveal'> {
  return {
    'stores.reveal': async ({ rid, id, store }, caller) => {
      const service = storeIndexOf(ctx.workspaces.current);
      await service.ready;
      const entry = await service.fresh(() => getEntry(service.db, { rid, id, store }));
      if (!entry) throw new ConsoleError('not_found', `No knowledge entry ${id !== undefined ? `with id ${id}` : `#${rid}`}`);
      const kinds = [...new Set(findCredentials(JSON.stringify(entry.raw)).map((m) => m.kind))];
      await human.record(caller, {
        event: 'reveal',
        op: 'stores.reveal',
        outcome: 'ok',
        ids: [entry.id ?? `rid:${entry.rid}`],
        message: `revealed ${kinds.length ? kinds.join(', ') : 'no masked credential'} in ${entry.file}:${entry.line}`,
        detail: { store: entry.store, file: entry.file, line: entry.line, kinds },
      });
      return { rid: entry.rid, id: entry.id, lesson: typeof entry.raw.lesson === 'string' ? entry.raw.lesson : null, raw: entry.raw, kinds };
    },
  };
}
