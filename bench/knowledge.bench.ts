/**
 * Knowledge benchmark (issue 4): the knowledge model at ~100k entries, through the real core.
 * Index ready → model warm-up (with the longest wait of a table page query meanwhile) → for
 * detail, directives, injection preview, inboxes and both exports: the first call, a repeat,
 * and a call right after another process appends one lesson (once the index has it) → a cold
 * start on the existing index (no warm-up yet). Ratios are against the same run's idle page
 * query; the incremental-model figures (knowledge-incremental.ts) against a from-scratch build. KNOWLEDGE_BENCH_ENTRIES (default 115000) sets the generated volume.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchReport } from './report';
import { percentile } from './report';
import { knowledgeOf } from '../main/core/rpc/knowledge-handlers';
import { storeIndexOf } from '../main/core/rpc/store-handlers';
import { measureIncremental } from './knowledge-incremental';
import { createConsoleCore } from '../main/core/console-core';
import { caller, PAGE, pageWaitsDuring, timed, type Call } from './core-calls';
import { compiledChild } from './compiled-child';
import type { ReopenResult } from './knowledge-reopen-child';
import { generateDemoWorkspace } from '../main/demo/generate';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Another process appends one lesson line; resolves once the index shows it. */
export async function appendLesson(call: Call, knowledgeFile: string, n: number): Promise<string> {
  const id = `b3a7c0de-0000-4000-8000-${String(n).padStart(12, '0')}`;
  const lesson = {
    id,
    tier: 'swarm',
    lesson: `Bench lesson ${n}: re-run the contract tests after regenerating the client for the payments gateway.`,
    category: 'testing',
    tags: ['bench'],
    scope: 'global',
    confidence: 0.85,
    status: 'established',
    confirmed_by: [{ phase_number: 1, confirmed_at: '2026-07-01T00:00:00.000Z', project_name: 'bench' }],
    retrieval_outcomes: {},
    schema_version: 1,
    created_at: '2026-07-01T00:00:00.000Z',
    updated_at: '2026-07-01T00:00:00.000Z',
    directive_priority: 'high',
    required_actions: ['re-run the contract tests'],
  };
  const script = `require('node:fs').appendFileSync(${JSON.stringify(knowledgeFile)}, ${JSON.stringify(`${JSON.stringify(lesson)}\n`)})`;
  const child = spawnSync(process.execPath, ['-e', script]);
  if (child.status !== 0) throw new Error(`append failed: ${child.stderr}`);
  for (let i = 0; i < 3000; i++) {
    if ((await call('stores.entries', { limit: 1, filter: { id } })).total === 1) return id;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the index never showed the appended lesson');
}

/** Bytes of every file under `dirs`. */
function treeBytes(dirs: readonly string[]): number {
  let bytes = 0;
  for (const dir of dirs) {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
      if (entry.isFile()) bytes += fs.statSync(path.join(entry.parentPath, entry.name)).size;
    }
  }
  return bytes;
}

/**
 * The index as a real session leaves it: the stores bench measures it right after ingest, before
 * any knowledge warm-up has written the kept state (derived_* tables) that re-opens answer from.
 */
function reportFootprint(report: BenchReport, db: ReturnType<typeof storeIndexOf>['db'], dataDirs: readonly string[]): void {
  const dataBytes = treeBytes(dataDirs);
  const indexBytes = ['', '-wal'].reduce((n, suffix) => n + (fs.existsSync(db.name + suffix) ? fs.statSync(db.name + suffix).size : 0), 0);
  const tables = db.prepare("SELECT name, sum(pgsize) AS bytes FROM dbstat WHERE name LIKE 'derived%' GROUP BY name ORDER BY bytes DESC").all() as { name: string; bytes: number }[];
  const derived = tables.reduce((n, t) => n + t.bytes, 0);
  report.figure('index size after the warm-up, kept state included / store data size', indexBytes / dataBytes, '×', '≤ 1');
  report.figure('kept knowledge state (derived_* tables) / store data size', derived / dataBytes, '×');
  report.note(
    `index ${(indexBytes / 1e6).toFixed(1)} MB (database + WAL) for ${(dataBytes / 1e6).toFixed(1)} MB of store data; kept state ${(derived / 1e6).toFixed(1)} MB: ${tables.map((t) => `${t.name} ${(t.bytes / 1e6).toFixed(1)}`).join(', ')}`,
  );
}

/** The re-open in a process of its own (knowledge-reopen-child.ts), compiled as the app ships its core when esbuild is there. */
function runReopenChild(project: string, hive: string, userDataDir: string, detailId: string): ReopenResult {
  const compiled = compiledChild('knowledge-reopen-child');
  const command = compiled ? [compiled] : [path.join(repo, 'bin', 'run-ts.mjs'), path.join(repo, 'bench', 'knowledge-reopen-child.ts')];
  const child = spawnSync(process.execPath, [...command, project, hive, userDataDir, detailId], { cwd: repo, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  const line = child.stdout.split('\n').find((l) => l.startsWith('REOPEN_CHILD '));
  if (!line) throw new Error(`re-open child failed (exit ${child.status}): ${child.stderr.slice(-2000)}`);
  return JSON.parse(line.slice('REOPEN_CHILD '.length)) as ReopenResult;
}

const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' / ');

export async function run(report: BenchReport): Promise<void> {
  const entries = Number(process.env.KNOWLEDGE_BENCH_ENTRIES ?? '115000');
  report.section(`Knowledge model: generated workspace with ${entries.toLocaleString('en')} knowledge entries`);
  report.note(`load average (1/5/15 min) at start: ${load()} on ${os.cpus().length} cores (shared machine: figures are wall times)`);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'knowledge-bench-'));
  const project = path.join(root, 'project');
  const hive = path.join(root, 'hive');
  const userDataDir = path.join(root, 'user-data');
  const knowledgeFile = path.join(project, '.swarm', 'knowledge.jsonl');
  try {
    generateDemoWorkspace({ projectDir: project, hiveDir: hive, seed: 42, scale: { knowledgeEntries: entries } });

    const tReady = performance.now();
    const core = await createConsoleCore({ userDataDir, host: 'browser', version: 'bench' }, { project, hive });
    const call = caller(core);
    await call('stores.summary', {});
    report.figure('index ready (core start → first stores.summary)', performance.now() - tReady, 'ms');
    const counts = (await call('stores.entries', { limit: 1 })).total as number;
    report.note(`indexed knowledge entries (every tier and collection the opened project sees): ${counts}`);

    // What the Knowledge view does on open: a page, then its markers (which starts the model).
    const page = await call('stores.entries', PAGE);
    await call('knowledge.markers', { rids: page.items.map((i: { rid: number }) => i.rid) });
    const service = knowledgeOf(core.context.workspaces.current);
    const tWarm = performance.now();
    const warmWaits = await pageWaitsDuring(call, service.settled());
    report.figure('model warm-up: build + clusters + tier merge, in the background', performance.now() - tWarm, 'ms');

    const idle: number[] = [];
    for (let i = 0; i < 40; i++) idle.push((await timed(() => call('stores.entries', PAGE))).ms);
    const baseline = percentile(idle, 50);
    report.figure('baseline: stores.entries first page, idle (p50 of 40)', baseline, 'ms');
    report.figure('stores.entries first page: longest wait while the model warms up', warmWaits.max, 'ms');
    report.figure('… vs idle', warmWaits.max / baseline, '×', 'a page is never held for the whole build');
    report.note(`${warmWaits.count} page queries answered during the warm-up (p50 ${warmWaits.p50.toFixed(1)} ms)`);

    const detailId = page.items[7].id as string;
    const ops: { name: string; run: (id: string) => Promise<any> }[] = [
      { name: 'knowledge.detail', run: (id) => call('knowledge.detail', { id }) },
      { name: 'knowledge.directives (first page)', run: () => call('knowledge.directives', {}) },
      { name: 'knowledge.previewInjection', run: () => call('knowledge.previewInjection', { phase: 'Phase 3: implement the refunds API', agent: 'coder', tool: 'task', headroomPercent: 70 }) },
      { name: 'knowledge.inboxes', run: () => call('knowledge.inboxes', {}) },
      { name: 'knowledge.export csv', run: () => call('knowledge.export', { format: 'csv', filter: {}, sort: { field: 'updated_at', dir: 'desc' } }) },
      { name: 'knowledge.export jsonl', run: () => call('knowledge.export', { format: 'jsonl', filter: {}, sort: { field: 'updated_at', dir: 'desc' } }) },
    ];
    let appended = 0;
    let longestAfterAppend = 0;
    for (const op of ops) {
      const first = await timed(() => op.run(detailId));
      const repeat = await timed(() => op.run(detailId));
      const id = await appendLesson(call, knowledgeFile, ++appended);
      let after!: { ms: number; value: any };
      const waits = await pageWaitsDuring(
        call,
        (async () => {
          after = await timed(() => op.run(id));
        })(),
      );
      longestAfterAppend = Math.max(longestAfterAppend, waits.max);
      report.figure(`${op.name}: first call`, first.ms, 'ms');
      report.figure(`${op.name}: repeat`, repeat.ms, 'ms');
      report.figure(`${op.name}: right after an append`, after.ms, 'ms');
      report.figure(`${op.name}: first call vs idle page query`, first.ms / baseline, '×');
      const freshness = after.value.duplicatesFreshness ?? after.value.freshness;
      if (freshness) {
        const fresh = await timed(() => service.settled());
        report.note(`${op.name} after the append: served ${freshness.stale ? 'the previous result marked stale (computing a newer one)' : 'a current result'}; current again after ${(after.ms + fresh.ms).toFixed(0)} ms`);
      } else {
        await service.settled();
      }
      if (after.value.content) report.note(`${op.name}: ${after.value.count} rows, ${(after.value.content.length / 1e6).toFixed(1)} MB`);
    }
    report.figure('stores.entries first page: longest wait while the model catches up after an append', longestAfterAppend, 'ms');
    report.figure('… vs idle', longestAfterAppend / baseline, '×');

    await measureIncremental(report, { call, service, db: storeIndexOf(core.context.workspaces.current).db, append: () => appendLesson(call, knowledgeFile, ++appended) });

    // Restart on the existing index with unchanged stores: the model is not warm yet; the first
    // detail, Directives page and Inboxes are answered from the derived state kept in the index.
    const tKeep = performance.now();
    await service.settled();
    report.note(`derived state kept in the index before closing (settled after ${(performance.now() - tKeep).toFixed(0)} ms)`);
    reportFootprint(report, storeIndexOf(core.context.workspaces.current).db, [path.join(project, '.swarm'), hive]);
    await core.dispose();
    // A re-open is what an operator gets after restarting the console: a new process, a fresh heap
    // and code that has not run yet. Measured in this process (after a full collection), the first
    // text search took 242–447 ms over four runs, decided by the first session's garbage and warm code.
    const reopen = runReopenChild(project, hive, userDataDir, detailId);
    report.note(`re-open: in a new process running the core ${reopen.compiled ? 'compiled as the app ships it (bench/compiled-child.ts)' : 'from its TypeScript sources (esbuild unavailable: tsx transpiles the code it loads late)'}`);
    report.figure('re-open on the existing index: index ready (history and index opened)', reopen.readyMs, 'ms', '≤ 300 ms');
    report.figure('re-open: first stores.entries page (exact total and facets)', reopen.firstPageMs, 'ms');
    report.figure('re-open: first knowledge.detail before any warm-up (full model build)', reopen.coldDetailMs, 'ms', '≤ 500 ms');
    report.figure('re-open: longest stores.entries wait during that build', reopen.coldDetailLongestPageWaitMs, 'ms');
    report.figure('re-open: first knowledge.directives page', reopen.directivesMs, 'ms', '≤ 500 ms');
    report.figure('re-open: first knowledge.inboxes', reopen.inboxesMs, 'ms', '≤ 500 ms');
    report.figure('re-open: first quick-filtered knowledge.directives page (critical and high, not eligible, by violations)', reopen.quickFilteredMs, 'ms', '≤ 500 ms');
    report.figure('re-open: first text-searched knowledge.directives page ("before")', reopen.searchedMs, 'ms', '≤ 500 ms');
    report.count('re-open: directives searched for "before" and found', reopen.searched, 'directives');
    report.note(`re-open: ${reopen.quickFiltered} quick-filtered and ${reopen.searched} searched directives; model builds finished by then: ${reopen.buildsAfterCalls}`);
    report.note(
      `re-open: model builds finished when the detail was answered / after the three calls: ${reopen.buildsAtDetail} / ${reopen.buildsAfterCalls} (0: answered from the kept state); ${reopen.directives} directives, ${reopen.duplicateGroups} duplicate groups`,
    );
    report.figure('re-open: model warm-up in the background (build + clusters + tier merge)', reopen.warmUpMs, 'ms');
    report.note(`load average at end: ${load()}`);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
