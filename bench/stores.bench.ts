/**
 * Stores benchmark (issue 3): ingest throughput vs a bare JSON.parse loop, filter+sort+first-page
 * latency over 1M events and 100k entries vs jq, append→change-event latency, peak RSS of the
 * indexing process (measured in a child process: stores-ingest-child.ts, compiled as the app ships it).
 *
 * STORES_BENCH_SCALE (default 1) scales the data: 1 = 1,000,000 events, 100,000 entries,
 * 500,000 receipt records.
 */
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchReport } from './report';
import { percentile } from './report';
import { createConsoleCore } from '../main/core/console-core';
import { storeIndexOf } from '../main/core/rpc/store-handlers';
import { seededRandom } from '../testing/stores/synthetic-stores';
import { generateDemoWorkspace } from '../main/demo/generate';
import { discoverFiles, locateStores, type StoreFile } from '../main/core/stores/locate';
import { storeDef } from '../main/core/stores/catalog';
import { writeSyntheticStores } from '../testing/stores/synthetic-stores';
import { Workspace } from '../main/core/workspace/workspace';
import { resolveWorkspacePaths } from '../main/core/platform/paths/workspace-paths';
import { compiledChild } from './compiled-child';
import type { ChildResult } from './stores-ingest-child';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');

/**
 * Ingests the workspace into a new index in a child process and returns its figures: the child
 * compiled as the app ships it (compiled-child.ts), or, without esbuild, from the TypeScript
 * sources under tsx (`compiled: false`; the caller says so beside the figures).
 */
export function runChild(project: string, hive: string, userDataDir: string): ChildResult {
  const compiled = compiledChild('stores-ingest-child');
  const command = compiled ? [compiled] : [path.join(repo, 'bin', 'run-ts.mjs'), path.join(here, 'stores-ingest-child.ts')];
  const child = spawnSync(process.execPath, [...command, project, hive, userDataDir], {
    cwd: repo,
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  const line = child.stdout.split('\n').find((l) => l.startsWith('STORES_CHILD '));
  if (!line) throw new Error(`ingest child failed (exit ${child.status}): ${child.stderr.slice(-2000)}`);
  return JSON.parse(line.slice('STORES_CHILD '.length)) as ChildResult;
}

/** The seeded demo generator at bench scale (sized so the opened project indexes ≥ the target counts); the local writer if it is unavailable. */
export function writeData(project: string, hive: string, scale: { events: number; entries: number; receipts: number }): string {
  try {
    // Of the generated volumes, the opened project sees 95% of event lines and 90% of entries
    // (the rest belongs to the demo's second, linked project).
    generateDemoWorkspace({
      projectDir: project,
      hiveDir: hive,
      seed: 42,
      scale: { eventLines: Math.ceil(scale.events / 0.95), knowledgeEntries: Math.ceil(scale.entries / 0.9), receiptRecords: scale.receipts },
    });
    return 'seeded demo generator (main/demo/generate.ts, seed 42)';
  } catch (error) {
    fs.rmSync(project, { recursive: true, force: true });
    fs.rmSync(hive, { recursive: true, force: true });
    writeSyntheticStores(project, hive, scale, 7);
    return `seeded local writer (testing/stores/synthetic-stores.ts) — the demo generator failed: ${(error as Error).message}`;
  }
}

function fileSize(file: StoreFile): number {
  try {
    return fs.statSync(file.path).size;
  } catch {
    return 0;
  }
}


/** A bare loop: read each file, split on newlines, JSON.parse every line. */
export function bareParse(files: string[]): { ms: number; bytes: number; lines: number } {
  let bytes = 0;
  let lines = 0;
  const t0 = performance.now();
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    bytes += Buffer.byteLength(text);
    for (const l of text.split('\n')) {
      if (l.length) {
        JSON.parse(l);
        lines++;
      }
    }
  }
  return { ms: performance.now() - t0, bytes, lines };
}

function jq(filter: string, files: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    execFile('jq', ['-cn', filter, ...files], { maxBuffer: 64 * 1024 * 1024 }, (error) => (error ? reject(error) : resolve(performance.now() - t0)));
  });
}

const hasJq = () => spawnSync('jq', ['--version']).status === 0;

async function timeCalls(count: number, make: (i: number) => { name: string; input: unknown }, call: (name: string, input: unknown) => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const { name, input } = make(i);
    const t0 = performance.now();
    await call(name, input);
    samples.push(performance.now() - t0);
  }
  return samples;
}

export async function run(report: BenchReport): Promise<void> {
  const factor = Number(process.env.STORES_BENCH_SCALE ?? '1');
  const scale = { events: Math.round(1_000_000 * factor), entries: Math.round(100_000 * factor), receipts: Math.round(500_000 * factor) };
  report.section(`Stores: ${scale.events.toLocaleString('en')} events, ${scale.entries.toLocaleString('en')} entries, ${scale.receipts.toLocaleString('en')} receipt records`);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stores-bench-'));
  const project = path.join(root, 'project');
  const hive = path.join(root, 'hive');
  const userDataDir = path.join(root, 'user-data');
  try {
    const tw = performance.now();
    const source = writeData(project, hive, scale);
    const paths = resolveWorkspacePaths(project, hive, 'flag', false);
    const storeFiles = locateStores(paths).flatMap(discoverFiles);
    const jsonl = (table: string) => storeFiles.filter((f) => storeDef(f.storeKey)?.format === 'jsonl' && (table === '*' || storeDef(f.storeKey)?.table === table)).map((f) => f.path);
    const files = { eventFiles: jsonl('events'), entryFiles: jsonl('entries'), all: jsonl('*') };
    const totalBytes = storeFiles.reduce((n, f) => n + fileSize(f), 0);
    report.note(`data: ${source}, ${(totalBytes / 1e6).toFixed(0)} MB in ${storeFiles.length} store files, written in ${((performance.now() - tw) / 1000).toFixed(1)} s`);

    // 1. Ingest throughput (child process) vs a bare JSON.parse loop over the same lines.
    const bare = bareParse(files.all);
    const child = runChild(project, hive, userDataDir);
    const bareMBps = bare.bytes / 1e6 / (bare.ms / 1000);
    const ingestMBps = totalBytes / 1e6 / (child.wallMs / 1000);
    report.figure('ingest throughput', ingestMBps, 'MB/s');
    report.figure('bare JSON.parse loop (readFileSync + split + parse)', bareMBps, 'MB/s');
    report.figure('ingest / bare parse', ingestMBps / bareMBps, '×', '≥ 0.5');
    report.figure('ingest rows', child.rows / (child.wallMs / 1000), 'rows/s');
    report.figure('ingest CPU time / wall time', child.cpuMs / child.wallMs, '×');
    report.figure('peak RSS of the indexing process', child.maxRssMb, 'MB', '≤ 300 MB');
    report.figure('of it, RSS before the index opens (runtime and code)', child.startRssMb, 'MB');
    if (!child.compiled) report.note('esbuild unavailable: the ingest child ran from the TypeScript sources under tsx, whose transpiler counts in its time and RSS');
    const cacheDir = Workspace.cacheDirFor(userDataDir, paths);
    const indexBytes = ['', '-wal'].reduce((n, suffix) => n + (fs.existsSync(path.join(cacheDir, `store-index.sqlite${suffix}`)) ? fs.statSync(path.join(cacheDir, `store-index.sqlite${suffix}`)).size : 0), 0);
    report.figure('index size on disk', indexBytes / 1e6, 'MB');
    report.figure('index size / data size', indexBytes / totalBytes, '×', '≤ 1');

    // 2. Queries through the contract (validation included), against the index built above.
    const core = await createConsoleCore({ userDataDir, host: 'browser', version: 'bench' }, { project, hive });
    const call = async (name: string, input: unknown) => {
      const result = await core.dispatcher.call(name, input);
      if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
      return result.value;
    };
    try {
      const t0 = performance.now();
      await call('stores.summary', {});
      report.figure('re-open of an indexed workspace (unchanged files)', performance.now() - t0, 'ms');

      const random = seededRandom(11);
      const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
      // Filter values drawn from what was indexed (not timed).
      const db = storeIndexOf(core.context.workspaces.current).db;
      const sample = (sql: string) => (db.prepare(sql).pluck().all() as (string | null)[]).filter((v): v is string => typeof v === 'string');
      const counts = db.prepare("SELECT (SELECT count(*) FROM events) AS events, (SELECT count(*) FROM entries) AS entries, (SELECT count(*) FROM receipts) AS receipts").get() as Record<string, number>;
      report.note(`indexed: ${counts.events} events, ${counts.entries} knowledge entries (all tiers and collections), ${counts.receipts} receipt records`);
      const kinds = sample('SELECT DISTINCT kind FROM events');
      const sessions = sample('SELECT session_id FROM events WHERE rid % 997 = 0 LIMIT 300');
      const agents = sample('SELECT DISTINCT agent FROM events');
      const knowledgeIds = sample('SELECT knowledge_id FROM events WHERE rid % 991 = 0 LIMIT 300');
      const eventStores = sample('SELECT DISTINCT store_key FROM files WHERE store_key IN (SELECT DISTINCT store_key FROM events)');
      const eventFilter = (): Record<string, unknown> => {
        const r = random();
        if (r < 0.3) return { kind: [pick(kinds)] };
        if (r < 0.45) return { session: pick(sessions) };
        if (r < 0.55) return { agent: pick(agents) };
        if (r < 0.65) return { kind: [pick(kinds)], agent: pick(agents) };
        if (r < 0.78) return { knowledgeId: pick(knowledgeIds) };
        if (r < 0.9) return { store: [pick(eventStores)] };
        return {};
      };
      const eventSamples = await timeCalls(200, () => ({ name: 'stores.events', input: { filter: eventFilter(), sort: { field: 'ts', dir: pick(['asc', 'desc']) }, limit: 50 } }), call);
      report.figure('events: filter + sort + first page (p50)', percentile(eventSamples, 50), 'ms');
      report.figure('events: filter + sort + first page (p95)', percentile(eventSamples, 95), 'ms', '≤ 20 ms');

      const facets = ((await call('stores.entries', { limit: 1 })) as { facets: Record<string, { value: string | null }[]> }).facets;
      const values = (facet: string) => facets[facet]!.map((f) => f.value).filter((v): v is string => v !== null).slice(0, 30);
      const lessonWords = sample('SELECT lesson FROM entries WHERE rid % 97 = 0 LIMIT 200')
        .flatMap((l) => l.split(/[^A-Za-z]+/))
        .filter((w) => w.length > 4);
      const entryFilter = (): Record<string, unknown> => {
        const r = random();
        if (r < 0.2) return { status: [pick(values('status'))] };
        if (r < 0.35) return { category: [pick(values('category'))] };
        if (r < 0.5) return { tier: [pick(values('tier'))], priority: [pick(values('priority'))] };
        if (r < 0.65) return { tags: [pick(values('tags'))] };
        if (r < 0.85) return { text: pick(lessonWords) };
        return {};
      };
      const sorts = ['updated_at', 'confidence', 'priority', 'created_at'];
      const entrySamples = await timeCalls(200, () => ({ name: 'stores.entries', input: { filter: entryFilter(), sort: { field: pick(sorts), dir: pick(['asc', 'desc']) }, limit: 50 } }), call);
      report.figure('entries: filter + sort + first page + facets (p50)', percentile(entrySamples, 50), 'ms');
      report.figure('entries: filter + sort + first page + facets (p95)', percentile(entrySamples, 95), 'ms', '≤ 20 ms');

      if (hasJq()) {
        const jqEvents: number[] = [];
        const oursEvents: number[] = [];
        for (const kind of kinds.slice(0, 3)) {
          jqEvents.push(await jq(`[inputs | select((.type // .event // .result) == "${kind}")] | {total: length, page: (sort_by(.timestamp) | reverse | .[:50])}`, files.eventFiles));
          const t = performance.now();
          await call('stores.events', { filter: { kind: [kind] }, sort: { field: 'ts', dir: 'desc' }, limit: 50 });
          oursEvents.push(performance.now() - t);
        }
        const jqEntries: number[] = [];
        const oursEntries: number[] = [];
        for (const status of values('status').slice(0, 3)) {
          jqEntries.push(await jq(`[inputs | select(.status == "${status}")] | {total: length, page: (sort_by(.updated_at) | reverse | .[:50])}`, files.entryFiles));
          const t = performance.now();
          await call('stores.entries', { filter: { status: [status] }, sort: { field: 'updated_at', dir: 'desc' }, limit: 50 });
          oursEntries.push(performance.now() - t);
        }
        report.figure('events: same query by jq over the JSONL (median of 3)', percentile(jqEvents, 50), 'ms');
        report.figure('events: index vs jq', percentile(jqEvents, 50) / Math.max(0.001, percentile(oursEvents, 50)), '× faster', '≥ 100×');
        report.figure('entries: same query by jq over the JSONL (median of 3)', percentile(jqEntries, 50), 'ms');
        report.figure('entries: index vs jq', percentile(jqEntries, 50) / Math.max(0.001, percentile(oursEntries, 50)), '× faster', '≥ 100×');
      } else {
        report.note('jq not installed (apt-get install -y jq): the jq comparison was skipped');
      }

      // 3. appendFile → change event through a contract subscriber.
      const eventsFile = path.join(project, '.swarm', 'events.jsonl');
      let waiting: ((at: number) => void) | null = null;
      const sub = core.dispatcher.subscribe('stores.changes', {}, (event) => {
        const change = event as { storeKey: string; kind: string };
        if (change.storeKey === 'events' && change.kind === 'appended' && waiting) waiting(performance.now());
      });
      if (!sub.ok) throw new Error(sub.error.message);
      const latencies: number[] = [];
      for (let i = 0; i < 200; i++) {
        const line = JSON.stringify({ event: 'knowledge_application_gate_deny', timestamp: new Date().toISOString(), sessionID: 'bench', tool: 'Task', agent: 'architect', entry_ids: ['x'] }) + '\n';
        const arrived = new Promise<number>((resolve) => (waiting = resolve));
        const t = performance.now();
        fs.appendFileSync(eventsFile, line);
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<number>((resolve) => (timer = setTimeout(() => resolve(Number.NaN), 5000)));
        const at = await Promise.race([arrived, timeout]);
        // Cleared: left running, the 200 timers stayed in the process for the next section (run.ts lists them at its start).
        clearTimeout(timer);
        waiting = null;
        latencies.push(at - t);
      }
      sub.value();
      const missed = latencies.filter((l) => Number.isNaN(l)).length;
      const seen = latencies.filter((l) => !Number.isNaN(l));
      report.figure('appendFile → change event (p50)', percentile(seen, 50), 'ms');
      report.figure('appendFile → change event (p95)', percentile(seen, 95), 'ms', '≤ 100 ms');
      if (missed) report.note(`${missed} of 200 appends produced no change event within 5 s`);
    } finally {
      await core.dispose();
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
