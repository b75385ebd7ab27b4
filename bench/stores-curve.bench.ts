/**
 * The stores cost curve (issue 21): ingest and re-open of a workspace at several sizes (1k, 10k
 * and 100k knowledge entries by default; `--sizes` overrides), each size with the full bench's
 * proportions (10 event lines and 5 receipt records per entry), and the growth exponent k of each
 * figure (time ∝ nᵏ, least squares on log-log). Goal: k ≤ 1.1 — cost that grows with the data,
 * not faster. Each size also gives the lean-index figures, each against its baseline in the same
 * run: ingest against a bare JSON.parse loop over the same files, index size against the data
 * size, and re-open (index ready with unchanged files) against a bare stat of the same files.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { growthExponent, exponentName, sizeSet, type BenchOptions, type BenchReport } from './report';
import { bareParse, runChild, writeData } from './stores.bench';
import { StoreIndexService } from '../main/core/store-index/store-index-service';
import Database from 'better-sqlite3';
import { listEvents } from '../main/core/store-index/event-queries';
import { listEntries } from '../main/core/store-index/entry-queries';
import { EntriesInput, EventsInput } from '../shared/contract/stores';
import { INDEX_FILE_NAME } from '../main/core/store-index/schema';
import { discoverFiles, locateStores } from '../main/core/stores/locate';
import { storeDef } from '../main/core/stores/catalog';
import { Workspace } from '../main/core/workspace/workspace';
import { resolveWorkspacePaths } from '../main/core/platform/paths/workspace-paths';

const DEFAULT_SIZES = [1_000, 10_000, 100_000];

interface Point {
  n: number;
  ingestMs: number;
  /** Ingest throughput over a bare JSON.parse loop's, same files. */
  ingestRatio: number;
  /** The same ratio in CPU time (ingest child's CPU over the bare loop's): the one to trust on a busy machine. */
  ingestCpuRatio: number;
  /** Index (database + WAL) bytes over the store files' bytes. */
  sizeRatio: number;
  /** The same once a session kept its column caches in it. */
  keptSizeRatio: number;
  dataMb: number;
  indexMb: number;
  reopenMs: number;
  /** CPU time of the process until ready (the figure to trust on a busy machine). */
  reopenCpuMs: number;
  statMs: number;
  storeFiles: number;
  warmMs: number;
  /** CPU time of the process from open until the column caches are warm. */
  warmCpuMs: number;
  firstEventsPageMs: number;
  /** The first counted entries and events pages right after ready (the caches loaded or restored first). */
  firstPageMs: number;
  /** Rows the re-open took from the column caches kept in the index. */
  restoredRows: number;
  /** The same re-open with the kept column caches deleted first. */
  unkeptWarmMs: number;
  unkeptWarmCpuMs: number;
  unkeptFirstPageMs: number;
}

const sizeOf = (file: string) => (fs.existsSync(file) ? fs.statSync(file).size : 0);

/** Opens the ingested index again with unchanged files: until ready, until its column caches are warm, and its first counted page. */
async function reopen(paths: ReturnType<typeof resolveWorkspacePaths>, cacheDir: string) {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const service = new StoreIndexService(paths, cacheDir);
  try {
    await service.ready;
    const reopenMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    // What a view asks first, while the caches may still be warming: a counted page with facets.
    const p0 = performance.now();
    listEntries(service.db, service.columns.entries, EntriesInput.parse({ limit: 50, facets: true }));
    listEvents(service.db, service.columns.events, EventsInput.parse({ limit: 100, facets: true }));
    const firstPageMs = performance.now() - p0;
    await service.warmed;
    const warmMs = performance.now() - t0;
    const warmCpu = process.cpuUsage(cpu0);
    const q0 = performance.now();
    listEvents(service.db, service.columns.events, EventsInput.parse({ limit: 100, facets: true }));
    const firstEventsPageMs = performance.now() - q0;
    return {
      reopenMs,
      reopenCpuMs: (cpu.user + cpu.system) / 1000,
      firstPageMs,
      warmMs,
      warmCpuMs: (warmCpu.user + warmCpu.system) / 1000,
      firstEventsPageMs,
      restoredRows: service.columns.entries.restoredRows + service.columns.events.restoredRows,
    };
  } finally {
    await service.close();
  }
}

async function measure(entries: number): Promise<Point> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stores-curve-'));
  const project = path.join(root, 'project');
  const hive = path.join(root, 'hive');
  const userDataDir = path.join(root, 'user-data');
  try {
    writeData(project, hive, { events: 10 * entries, entries, receipts: 5 * entries });
    const paths = resolveWorkspacePaths(project, hive, 'flag', false);
    const storeFiles = locateStores(paths).flatMap(discoverFiles).filter((f) => fs.existsSync(f.path));
    const dataBytes = storeFiles.reduce((n, f) => n + sizeOf(f.path), 0);
    const bareCpu0 = process.cpuUsage();
    const bare = bareParse(storeFiles.filter((f) => storeDef(f.storeKey)?.format === 'jsonl').map((f) => f.path));
    const bareCpuUsage = process.cpuUsage(bareCpu0);
    const bareCpuMs = (bareCpuUsage.user + bareCpuUsage.system) / 1000;
    // Ingest in a child process (a fresh heap, as in the stores section); then re-open here.
    const ingest = runChild(project, hive, userDataDir);
    const cacheDir = Workspace.cacheDirFor(userDataDir, paths);
    const indexBytes = ['', '-wal'].reduce((n, suffix) => n + sizeOf(path.join(cacheDir, INDEX_FILE_NAME + suffix)), 0);

    // Baseline of the re-open: a bare stat of every store file (what any re-open must at least do).
    const s0 = performance.now();
    for (const file of storeFiles) fs.statSync(file.path);
    const statMs = performance.now() - s0;

    // A re-open without column caches kept in the index (column-snapshot.ts), the baseline of their
    // gain: the ingesting session closed before its caches warmed, and none is kept (deleted to be sure).
    const db = new Database(path.join(cacheDir, INDEX_FILE_NAME));
    db.prepare("DELETE FROM derived_values WHERE name LIKE 'columns:%'").run();
    db.close();
    const unkept = await reopen(paths, cacheDir);
    // That session warmed its caches and kept them: the next re-open takes them.
    const kept = await reopen(paths, cacheDir);
    const keptIndexBytes = ['', '-wal'].reduce((n, suffix) => n + sizeOf(path.join(cacheDir, INDEX_FILE_NAME + suffix)), 0);
    return {
      n: entries,
      ingestMs: ingest.wallMs,
      ingestRatio: dataBytes / ingest.wallMs / (bare.bytes / bare.ms),
      ingestCpuRatio: dataBytes / ingest.cpuMs / (bare.bytes / bareCpuMs),
      sizeRatio: indexBytes / dataBytes,
      keptSizeRatio: keptIndexBytes / dataBytes,
      dataMb: dataBytes / 1e6,
      indexMb: indexBytes / 1e6,
      statMs,
      storeFiles: storeFiles.length,
      ...kept,
      unkeptWarmMs: unkept.warmMs,
      unkeptWarmCpuMs: unkept.warmCpuMs,
      unkeptFirstPageMs: unkept.firstPageMs,
    };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

export async function run(report: BenchReport, options: BenchOptions = {}): Promise<void> {
  const sizes = options.sizes ?? DEFAULT_SIZES;
  // One section name whatever the sizes, so each size's figures meet the same figures of earlier runs.
  report.section('Stores cost curve');
  report.note(`sizes: ${sizeSet(sizes)} knowledge entries`);
  const points: Point[] = [];
  for (const n of sizes) {
    const point = await measure(n);
    points.push(point);
    const at = `at ${n.toLocaleString('en')} entries`;
    report.note(`${at}: ${point.dataMb.toFixed(1)} MB of store data in ${point.storeFiles} files, index ${point.indexMb.toFixed(1)} MB`);
    report.figure(`ingest ${at}`, point.ingestMs, 'ms');
    report.figure(`ingest / bare JSON.parse of the same files ${at}`, point.ingestRatio, '×', '≥ 0.5');
    report.figure(`ingest / bare JSON.parse in CPU time ${at}`, point.ingestCpuRatio, '×', '≥ 0.5');
    report.figure(`index size / data size ${at}`, point.sizeRatio, '×', '≤ 1');
    report.figure(`index size / data size once a session kept its column caches ${at}`, point.keptSizeRatio, '×', '≤ 1');
    report.figure(`re-open (index ready, unchanged files) ${at}`, point.reopenMs, 'ms', '≤ 300 ms');
    report.figure(`re-open CPU time until ready ${at}`, point.reopenCpuMs, 'ms', '≤ 300 ms');
    report.figure(`bare stat of the ${point.storeFiles} store files (baseline) ${at}`, point.statMs, 'ms');
    report.figure(`re-open until the column caches are warm (loaded in slices after ready) ${at}`, point.warmMs, 'ms');
    report.figure(`CPU time until the column caches are warm ${at}`, point.warmCpuMs, 'ms');
    report.figure(`first events page with facets after the warm-up ${at}`, point.firstEventsPageMs, 'ms');
    report.figure(`first counted entries + events pages right after ready ${at}`, point.firstPageMs, 'ms');
    report.figure(`… without the column caches kept in the index (baseline) ${at}`, point.unkeptFirstPageMs, 'ms');
    report.figure(`CPU time until the column caches are warm without the kept caches (baseline) ${at}`, point.unkeptWarmCpuMs, 'ms');
    report.note(`${at}: ${point.restoredRows.toLocaleString('en')} rows taken from the kept column caches; until warm without them ${point.unkeptWarmMs.toFixed(0)} ms wall`);
  }
  report.count('sizes measured', points.length, 'sizes');
  report.figure(exponentName('ingest growth exponent k (time ∝ nᵏ)', sizes), growthExponent(points.map((p) => ({ n: p.n, value: p.ingestMs }))), '', '≤ 1.1');
  report.figure(exponentName('re-open growth exponent k (time ∝ nᵏ)', sizes), growthExponent(points.map((p) => ({ n: p.n, value: p.reopenMs }))), '', '≤ 1.1');
  report.figure(exponentName('re-open CPU time growth exponent k (time ∝ nᵏ)', sizes), growthExponent(points.map((p) => ({ n: p.n, value: p.reopenCpuMs }))), '', '≤ 1.1');
  report.figure(exponentName('column-cache warm-up growth exponent k (time ∝ nᵏ)', sizes), growthExponent(points.map((p) => ({ n: p.n, value: p.warmMs }))), '', '≤ 1.1');
  report.note(`load average after the section: ${os.loadavg().map((l) => l.toFixed(2)).join(', ')}`);
}
