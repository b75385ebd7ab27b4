/**
 * The knowledge section's re-open, in a process of its own: what an operator gets after restarting
 * the console on an indexed workspace — a fresh heap, and code that has not run yet. It opens the
 * core on the existing index, makes the first calls a session makes, and prints their times on one
 * `REOPEN_CHILD {…}` line (knowledge.bench.ts runs it, compiled as the app ships it when it can:
 * compiled-child.ts).
 * Usage: node <compiled>/knowledge-reopen-child.js <project> <hive> <user-data-dir> <detail-id>
 */
import { createConsoleCore } from '../main/core/console-core';
import { knowledgeOf } from '../main/core/rpc/knowledge-handlers';
import { startWorkersFromSources } from '../main/core/platform/util/built-worker';
import { caller, PAGE, pageWaitsDuring, timed } from './core-calls';

export interface ReopenResult {
  /** Whether the core ran compiled (as the app ships it) or from the TypeScript sources. */
  compiled: boolean;
  readyMs: number;
  firstPageMs: number;
  coldDetailMs: number;
  coldDetailLongestPageWaitMs: number;
  buildsAtDetail: number;
  directivesMs: number;
  directives: number;
  inboxesMs: number;
  duplicateGroups: number;
  quickFilteredMs: number;
  quickFiltered: number;
  searchedMs: number;
  searched: number;
  buildsAfterCalls: number;
  /** From the first call until the background warm-up (build, clusters, tier merge) settled. */
  warmUpMs: number;
}

const compiled = !import.meta.url.endsWith('.ts');
const [project, hive, userDataDir, detailId] = process.argv.slice(2);
if (!project || !hive || !userDataDir || !detailId) {
  console.error('usage: knowledge-reopen-child <project> <hive> <user-data-dir> <detail-id>');
  process.exit(2);
}
// Compiled, the workers are found next to this file as the app finds them (built-worker.ts).
if (!compiled) startWorkersFromSources((await import('../testing/workers/source-worker')).sourceWorkerByName);

const tReopen = performance.now();
const core = await createConsoleCore({ userDataDir, host: 'browser', version: 'bench' }, { project, hive });
const call = caller(core);
await call('stores.summary', {});
const readyMs = performance.now() - tReopen;
// The table's first page counts every row with its facets: from the column caches kept in the index (column-snapshot.ts).
const firstPage = await timed(() => call('stores.entries', PAGE));
let cold!: { ms: number };
const tFirstCall = performance.now();
const coldWaits = await pageWaitsDuring(
  call,
  (async () => {
    cold = await timed(() => call('knowledge.detail', { id: detailId }));
  })(),
);
const reopened = knowledgeOf(core.context.workspaces.current);
const buildsAtDetail = reopened.builds;
const directives = await timed(() => call('knowledge.directives', {}));
const inboxes = await timed(() => call('knowledge.inboxes', {}));
// Quick filters read the kept facts and the page's rows; a text search reads every kept row.
const quickFiltered = await timed(() => call('knowledge.directives', { priority: ['critical', 'high'], eligibility: 'not_eligible', sort: 'violations' }));
const searched = await timed(() => call('knowledge.directives', { q: 'before' }));
const buildsAfterCalls = reopened.builds;
await reopened.settled();
const warmUpMs = performance.now() - tFirstCall;
await core.dispose();

const result: ReopenResult = {
  compiled,
  readyMs,
  firstPageMs: firstPage.ms,
  coldDetailMs: cold.ms,
  coldDetailLongestPageWaitMs: coldWaits.max,
  buildsAtDetail,
  directivesMs: directives.ms,
  directives: directives.value.total,
  inboxesMs: inboxes.ms,
  duplicateGroups: inboxes.value.duplicates.length,
  quickFilteredMs: quickFiltered.ms,
  quickFiltered: quickFiltered.value.total,
  searchedMs: searched.ms,
  searched: searched.value.total,
  buildsAfterCalls,
  warmUpMs,
};
process.stdout.write(`REOPEN_CHILD ${JSON.stringify(result)}\n`);
