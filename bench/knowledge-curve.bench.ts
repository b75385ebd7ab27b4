/**
 * The knowledge cost curve (issue 21): the same workspace at several sizes (1k, 10k and 100k
 * knowledge entries by default; `--sizes` overrides), each through the real core, and the growth
 * exponent k of each figure (time ∝ nᵏ, least squares on log-log). What it shows: the model's
 * warm-up grows with the store (goal k ≤ 1.1, as ingest), while a one-line append costs the same
 * at any size (goal k ≈ 0, here ≤ 0.2): the detail right after it, and the injection preview and
 * inboxes being current again. The re-open's first detail is also followed across sizes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { growthExponent, percentile, exponentName, sizeSet, type BenchOptions, type BenchReport } from './report';
import { appendLesson } from './knowledge.bench';
import { caller, timed, type Call } from './core-calls';
import { collector } from './knowledge-incremental';
import { knowledgeOf } from '../main/core/rpc/knowledge-handlers';
import { createConsoleCore } from '../main/core/console-core';
import { generateDemoWorkspace } from '../main/demo/generate';

const DEFAULT_SIZES = [1_000, 10_000, 100_000];
/**
 * Appends timed at each size. A detail after one takes 3–5 ms at 1k entries, where a median of
 * five moved by ±40 % between runs and with it the growth exponent (0.10–0.34 over five runs).
 */
const APPENDS = 15;
/** Appends after which the preview and the inboxes are timed until current again, at each size (single samples moved k by ±0.1). */
const CURRENT_AGAIN = 5;
const POLL_MS = 10;
const PREVIEW = { phase: 'Phase 3: implement the refunds API', agent: 'coder', tool: 'task', headroomPercent: 70 };

interface Point {
  n: number;
  /** Entries the opened project's model holds (swarm, hive and link stores). */
  entries: number;
  warmUpMs: number;
  detailAfterAppendMs: number;
  /** Every append's detail, in the order they were timed (the note shows whether a median moved with all of them or with a few). */
  detailSamples: number[];
  /** Of each, the time the garbage collector paused the thread while it ran. */
  gcInDetails: number[];
  previewCurrentMs: number;
  inboxesCurrentMs: number;
  reopenDetailMs: number;
}

/** Polls `run` until its answer is current; the time from the first call. */
async function timeToCurrent(run: () => Promise<any>, isCurrent: (value: any) => boolean): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    if (isCurrent(await run())) return performance.now() - t0;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function measure(n: number): Promise<Point> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'knowledge-curve-'));
  const project = path.join(root, 'project');
  const hive = path.join(root, 'hive');
  const userDataDir = path.join(root, 'user-data');
  const knowledgeFile = path.join(project, '.swarm', 'knowledge.jsonl');
  try {
    generateDemoWorkspace({ projectDir: project, hiveDir: hive, seed: 42, scale: { knowledgeEntries: n } });
    let core = await createConsoleCore({ userDataDir, host: 'browser', version: 'bench' }, { project, hive });
    let call: Call = caller(core);
    await call('stores.summary', {});
    const page = await call('stores.entries', { limit: 10, sort: { field: 'updated_at', dir: 'desc' } });
    const service = knowledgeOf(core.context.workspaces.current);
    const warmUp = await timed(async () => {
      await call('knowledge.markers', { rids: page.items.map((i: { rid: number }) => i.rid) });
      await service.settled();
    });
    const entries = (await service.model()).inputs.entries.length;

    let appended = 0;
    const details: number[] = [];
    // The garbage collector's pauses inside each timed detail (what makes a detail at 100k slow or fast).
    const collections: { start: number; ms: number }[] = [];
    const gcObserver = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) collections.push({ start: entry.startTime, ms: entry.duration });
    });
    gcObserver.observe({ entryTypes: ['gc'] });
    const spans: [number, number][] = [];
    for (let i = 0; i < APPENDS; i++) {
      const id = await appendLesson(call, knowledgeFile, ++appended);
      const t0 = performance.now();
      details.push((await timed(() => call('knowledge.detail', { id }))).ms);
      spans.push([t0, performance.now()]);
    }
    await new Promise((resolve) => setImmediate(resolve));
    gcObserver.disconnect();
    const gcInDetails = spans.map(([from, to]) => collections.filter((c) => c.start >= from && c.start < to).reduce((sum, c) => sum + c.ms, 0));
    // Each "current again" after its own append, on a settled service: the median of CURRENT_AGAIN.
    const previews: number[] = [];
    const inboxes: number[] = [];
    for (let i = 0; i < CURRENT_AGAIN; i++) {
      await service.settled();
      await appendLesson(call, knowledgeFile, ++appended);
      previews.push(await timeToCurrent(() => call('knowledge.previewInjection', PREVIEW), (v) => !v.freshness.stale));
      await service.settled();
      await appendLesson(call, knowledgeFile, ++appended);
      inboxes.push(await timeToCurrent(() => call('knowledge.inboxes', {}), (v) => !v.duplicatesFreshness.stale));
    }
    await service.settled();
    const [previewCurrentMs, inboxesCurrentMs] = [percentile(previews, 50), percentile(inboxes, 50)];
    await core.dispose();

    // Restart on the existing index: the first detail before the model is warm again (a fresh heap, as after a restart).
    collector()();
    core = await createConsoleCore({ userDataDir, host: 'browser', version: 'bench' }, { project, hive });
    call = caller(core);
    await call('stores.summary', {});
    const reopenDetail = await timed(() => call('knowledge.detail', { id: page.items[3].id }));
    await knowledgeOf(core.context.workspaces.current).settled();
    await core.dispose();
    return { n, entries, warmUpMs: warmUp.ms, detailAfterAppendMs: percentile(details, 50), detailSamples: details, gcInDetails, previewCurrentMs, inboxesCurrentMs, reopenDetailMs: reopenDetail.ms };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

export async function run(report: BenchReport, options: BenchOptions = {}): Promise<void> {
  const sizes = options.sizes ?? DEFAULT_SIZES;
  report.section('Knowledge cost curve');
  report.note(`sizes: ${sizeSet(sizes)} generated knowledge entries; load average at start ${os.loadavg().map((l) => l.toFixed(2)).join(', ')}`);
  const points: Point[] = [];
  for (const n of sizes) {
    const point = await measure(n);
    points.push(point);
    const at = `at ${n.toLocaleString('en')} entries`;
    report.note(`${at}: the opened project's model holds ${point.entries.toLocaleString('en')} entries`);
    report.figure(`model warm-up (build, clusters, tier merge) ${at}`, point.warmUpMs, 'ms');
    report.figure(`knowledge.detail right after a one-line append, p50 of ${APPENDS} ${at}`, point.detailAfterAppendMs, 'ms', '≤ 50 ms');
    report.note(`${at}: each append's detail in turn (ms): ${point.detailSamples.map((ms) => ms.toFixed(1)).join(' ')}`);
    report.note(`${at}: of which garbage collection (ms): ${point.gcInDetails.map((ms) => ms.toFixed(1)).join(' ')}`);
    report.figure(`knowledge.previewInjection current again after a one-line append, p50 of ${CURRENT_AGAIN} ${at}`, point.previewCurrentMs, 'ms', '≤ 100 ms');
    report.figure(`knowledge.inboxes current again after a one-line append, p50 of ${CURRENT_AGAIN} ${at}`, point.inboxesCurrentMs, 'ms', '≤ 100 ms');
    report.figure(`re-open: first knowledge.detail ${at}`, point.reopenDetailMs, 'ms', '≤ 500 ms');
  }
  report.count('sizes measured', points.length, 'sizes');
  const k = (pick: (p: Point) => number) => growthExponent(points.map((p) => ({ n: p.entries, value: pick(p) })));
  report.figure(exponentName('model warm-up growth exponent k (time ∝ nᵏ)', sizes), k((p) => p.warmUpMs), '', '≤ 1.1');
  report.figure(exponentName('detail after a one-line append: growth exponent k', sizes), k((p) => p.detailAfterAppendMs), '', '≤ 0.2 (k ≈ 0)');
  report.figure(exponentName('preview current after a one-line append: growth exponent k', sizes), k((p) => p.previewCurrentMs), '', '≤ 0.2 (k ≈ 0)');
  report.figure(exponentName('inboxes current after a one-line append: growth exponent k', sizes), k((p) => p.inboxesCurrentMs), '', '≤ 0.2 (k ≈ 0)');
  report.figure(exponentName('re-open first detail: growth exponent k', sizes), k((p) => p.reopenDetailMs), '', '≤ 1.1');
  report.note(`load average after the section: ${os.loadavg().map((l) => l.toFixed(2)).join(', ')}`);
}
