/**
 * Issue 21's incremental-model figures, measured inside the knowledge bench on its workspace:
 * knowledge.detail right after one-line appends (p50/p95), how long after an append the
 * Directives, injection preview and inboxes answers are current again, and the heap a model
 * holds per entry — each beside a from-scratch build of the same model in the same run.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import type { BenchReport } from './report';
import { percentile } from './report';
import { EntryCache } from '../main/core/knowledge/entry-cache';
import { KnowledgeModel } from '../main/core/knowledge/knowledge-model';
import type { KnowledgeService } from '../main/core/knowledge/knowledge-service';
import { KnowledgeSource } from '../main/core/store-index/knowledge-source';
import type { IndexDb } from '../main/core/store-index/open-index';
import { NO_SLICING } from '../main/core/platform/util/time-slicer';

type Call = (name: string, input: unknown) => Promise<any>;

interface Context {
  call: Call;
  service: KnowledgeService;
  db: IndexDb;
  /** Appends one lesson from another process; resolves with its id once the index shows it. */
  append: () => Promise<string>;
}

const APPENDS = 15;
const POLL_MS = 10;
const PREVIEW = { phase: 'Phase 3: implement the refunds API', agent: 'coder', tool: 'task', headroomPercent: 70 };

/** V8's full collection, without --expose-gc on the command line (the knowledge benches use it). */
export function collector(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

/** A model built from nothing on the same index: every entry parsed and checked, every view and the counterpart postings. */
async function fromScratch(service: KnowledgeService, db: IndexDb): Promise<{ ms: number; heapPerEntry: number; entries: number }> {
  const gc = collector();
  const current = await service.model();
  gc();
  const before = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  const cache = new EntryCache();
  await cache.refresh(new KnowledgeSource(db), NO_SLICING);
  const model = new KnowledgeModel({ ...current.inputs, entries: cache.entries }, current.thresholds, Date.now(), current.counters).prepareNow();
  const ms = performance.now() - t0;
  gc();
  const heap = process.memoryUsage().heapUsed - before;
  const entries = model.inputs.entries.length;
  return { ms, heapPerEntry: heap / entries, entries };
}

/** CPU time (user + system, ms) this process used since `from`. */
function cpuMs(from: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
}

/** Polls `run` until `current` says its answer reflects the stores as they are; the time from the first call. */
async function timeToCurrent(run: () => Promise<any>, current: (value: any) => boolean): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    if (current(await run())) return performance.now() - t0;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

export async function measureIncremental(report: BenchReport, { call, service, db, append }: Context): Promise<void> {
  await service.settled();
  const scratch = await fromScratch(service, db);
  report.figure('from-scratch model build (parse + views + counterpart postings), same run', scratch.ms, 'ms');
  report.figure('heap held by a from-scratch model, per entry (parsed entries, views, postings)', scratch.heapPerEntry / 1024, 'KB', '≤ 1 KB per entry');
  report.note(`${scratch.entries} entries in that model`);

  const details: number[] = [];
  const detailCpu: number[] = [];
  const grown: string[] = [];
  for (let i = 0; i < APPENDS; i++) {
    const id = await append();
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    await call('knowledge.detail', { id });
    details.push(performance.now() - t0);
    detailCpu.push(cpuMs(cpu0));
    grown.push((await service.model()).viewsMadeBy ?? 'none');
  }
  const p95 = percentile(details, 95);
  report.figure(`knowledge.detail right after a one-line append: p50 of ${APPENDS}`, percentile(details, 50), 'ms');
  report.figure(`knowledge.detail right after a one-line append: p95 of ${APPENDS}`, p95, 'ms', '≤ 50 ms p95');
  report.figure('… p95 vs a from-scratch model build', p95 / scratch.ms, '×', 'k ≈ 0: one line costs a sliver of a build');
  // CPU time of this process over the same calls: what the work costs when other jobs share the machine.
  report.figure(`knowledge.detail right after a one-line append: CPU time p50 of ${APPENDS}`, percentile(detailCpu, 50), 'ms');
  report.figure(`knowledge.detail right after a one-line append: CPU time p95 of ${APPENDS}`, percentile(detailCpu, 95), 'ms');
  report.note(`models after those appends grown from the previous one: ${grown.filter((g) => g === 'grown').length} of ${APPENDS}`);

  const current: { name: string; run: () => Promise<any>; isCurrent: (value: any) => boolean }[] = [
    { name: 'knowledge.directives', run: () => call('knowledge.directives', {}), isCurrent: () => true },
    { name: 'knowledge.previewInjection', run: () => call('knowledge.previewInjection', PREVIEW), isCurrent: (v) => !v.freshness.stale },
    { name: 'knowledge.inboxes', run: () => call('knowledge.inboxes', {}), isCurrent: (v) => !v.duplicatesFreshness.stale },
  ];
  for (const op of current) {
    await service.settled();
    await append();
    const cpu0 = process.cpuUsage();
    const ms = await timeToCurrent(op.run, op.isCurrent);
    const cpu = cpuMs(cpu0);
    report.figure(`${op.name}: current again after a one-line append`, ms, 'ms', '≤ 100 ms to current');
    report.figure(`${op.name}: CPU time of this process until current again (polls included)`, cpu, 'ms');
    report.figure(`… vs a from-scratch model build`, ms / scratch.ms, '×');
  }
  await service.settled();
}
