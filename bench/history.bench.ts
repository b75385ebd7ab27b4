/**
 * Knowledge history benchmark (issue 20), through the recorder's real code: the store index's rows
 * are written as its ingest writes them (testing/history/simulated-store.ts) with a simulated clock,
 * so a year of plugin writes takes minutes, not a year.
 *
 * - Recording cost per changed line (a counter update the plugin writes by rewriting a 100-entry
 *   store: the recorder reads and hashes the 100 rows and writes one version) against a bare sha256
 *   of that line, the least recording it could cost.
 * - History size after 10,000 counter updates on a 100-entry store, and after 1,000 curator
 *   rewrites of a 200-entry hive (20 confidences changed each time).
 * - A simulated year (one counter update a minute on a 100-entry store, and once a day the plugin
 *   evicting its oldest entry for a new one) under the default 200 MB budget, thinned as the app
 *   thins it (checked after every batch): the size, and every entry's first and last version and
 *   one version a day for the last 90 days, counted. Then as-of and Changes p95 on that year.
 *
 * HISTORY_BENCH_YEAR_SCALE (default 1) shortens the year, and the budget with it (a third of the year
 * under a third of 200 MB: thinning starts at the same point of the history and does the same work
 * per day). A full year takes about 50 minutes on the shared 2-core machine at load 25.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import type { BenchReport } from './report';
import { percentile } from './report';
import { openHistoryDb, type HistoryDb } from '../main/core/history/history-db';
import { HistoryQueries } from '../main/core/history/history-queries';
import { DAY_MS, KEEP_DAILY_DAYS } from '../main/core/history/thin-entry';
import { DEFAULT_HISTORY_BUDGET_BYTES, HistoryThinner, historySize, type ThinReport } from '../main/core/history/thinning';
import { VersionStore } from '../main/core/history/versions';
import { sha256 } from '../main/core/history/version-codec';
import { SimulatedStore } from '../testing/history/simulated-store';

const YEAR_SCALE = Number(process.env.HISTORY_BENCH_YEAR_SCALE ?? 1);
const MINUTE = 60_000;
const START = Date.UTC(2025, 0, 1);
const MB = 1024 * 1024;
/**
 * The year's one-a-minute updates reach the recorder ten minutes at a time (ten entries, one line
 * each, one batch): the same versions, sightings and bytes as one batch a minute, in a tenth of the
 * transactions, so a year generates in minutes on a shared machine. Times are then to ten minutes.
 */
const BATCH_MINUTES = 10;

/** An entry as the plugin writes it (v2 fields, ≈ 700 bytes), with counters that move. */
function entry(n: number, uses: number, confidence = 0.8, tier: 'swarm' | 'hive' = 'swarm') {
  const id = `${tier === 'hive' ? 'h' : 's'}${String(n).padStart(5, '0')}-4d1c-8a2b-${crypto.createHash('md5').update(String(n)).digest('hex').slice(0, 12)}`;
  return {
    id,
    tier,
    lesson: `Lesson ${n}: when the payment webhook times out, retry with exponential backoff (base 2 s, cap 60 s) before marking the charge failed.`,
    category: 'process',
    tags: ['payments', 'webhooks', `area-${n % 7}`],
    scope: 'global',
    confidence,
    status: 'established',
    confirmed_by: [{ phase_number: 3, confirmed_at: '2025-01-01T00:00:00.000Z', project_name: 'billing-api' }],
    retrieval_outcomes: { applied_count: uses, succeeded_after_count: Math.floor(uses * 0.8), failed_after_count: Math.floor(uses * 0.1) },
    schema_version: 1,
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: new Date(START + uses * MINUTE).toISOString(),
    project_name: 'billing-api',
    encounter_score: 1 + uses / 100,
    shown_count: uses * 3,
    phases_alive: 2,
    max_phases: 10,
    triggers: ['webhook timeout', 'payment retry'],
  };
}

/** Wall time and this process's CPU time (user + system) of one call: on a shared machine the first includes waiting for a core. */
function measured<T>(fn: () => T): { value: T; wall: number; cpu: number } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = fn();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { value, wall, cpu: (c.user + c.system) / 1000 };
}

function scratch(prefix: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const { db } = openHistoryDb(dir);
  const clock = { t: START };
  return { dir, db, clock, cleanup: () => (db.close(), fs.rmSync(dir, { recursive: true, force: true })) };
}

function sizeOf(db: HistoryDb) {
  db.pragma('wal_checkpoint(TRUNCATE)');
  const versions = db.prepare('SELECT count(*) AS n, coalesce(sum(length(data)), 0) AS bytes, coalesce(sum(size), 0) AS raw FROM versions').get() as { n: number; bytes: number; raw: number };
  const sightings = (db.prepare('SELECT count(*) AS n FROM sightings').get() as { n: number }).n;
  return { file: historySize(db).fileBytes, versions, sightings };
}

async function recordingCost(report: BenchReport): Promise<void> {
  report.section('History — recording cost per changed line');
  const s = scratch('history-bench-cost-');
  const store = new SimulatedStore(s.db, s.clock);
  try {
    const records = Array.from({ length: 100 }, (_, i) => entry(i, 0));
    await store.open(records);
    const costs: number[] = [];
    const cpu: number[] = [];
    for (let round = 1; round <= 400; round++) {
      s.clock.t += MINUTE;
      const n = round % 100;
      records[n] = entry(n, round);
      await store.rewrite(records);
      if (store.batches.at(-1)?.changed === 1) {
        costs.push(store.lastRecordMs);
        cpu.push(store.lastRecordCpuMs);
      }
    }
    const line = JSON.stringify(records[0]);
    const hashes = 20_000;
    const h0 = performance.now();
    for (let i = 0; i < hashes; i++) sha256(line);
    const bare = (performance.now() - h0) / hashes;
    report.note(`a counter update in a 100-entry store rewritten by the plugin (temp + rename): the recorder reads and hashes the 100 rows the index re-read and writes 1 version; line ${line.length} bytes`);
    report.count('counter updates recorded', costs.length, 'updates');
    report.figure('recording one changed line, p50', percentile(costs, 50), 'ms', '≤ 5 ms');
    report.figure('recording one changed line, p95', percentile(costs, 95), 'ms', '≤ 5 ms');
    report.figure('recording one changed line, p95 CPU time', percentile(cpu, 95), 'ms', '≤ 5 ms');
    report.figure('baseline: bare sha256 of that line', bare, 'ms');
    report.figure('recording p50 / bare sha256', percentile(costs, 50) / bare, '×');
  } finally {
    store.close();
    s.cleanup();
  }
}

async function sizes(report: BenchReport): Promise<void> {
  report.section('History — size of counter updates and curator rewrites');
  {
    const s = scratch('history-bench-counters-');
    const store = new SimulatedStore(s.db, s.clock);
    try {
      const uses = new Array(100).fill(0) as number[];
      await store.open(uses.map((_, i) => entry(i, 0)));
      const before = sizeOf(s.db);
      for (let i = 1; i <= 10_000; i++) {
        s.clock.t += MINUTE;
        const n = i % 100;
        await store.update(entry(n, ++uses[n]!));
      }
      const after = sizeOf(s.db);
      const added = after.versions.n - before.versions.n;
      report.count('versions stored by 10,000 counter updates', added, 'versions');
      report.figure('average stored version (deflated delta), 10,000 counter updates', (after.versions.bytes - before.versions.bytes) / added, 'B', '≤ 200 B');
      report.figure('average line those versions stand for', (after.versions.raw - before.versions.raw) / added, 'B');
      report.figure('history file after 10,000 counter updates on 100 entries', after.file / MB, 'MB');
      report.figure('history file per update (version, sighting, indexes)', (after.file - before.file) / 10_000, 'B');
    } finally {
      store.close();
      s.cleanup();
    }
  }
  {
    const s = scratch('history-bench-curator-');
    const store = new SimulatedStore(s.db, s.clock, 'hive', '/simulated/hive/shared-learnings.jsonl', 'shared-learnings.jsonl', 'hive');
    try {
      const records = Array.from({ length: 200 }, (_, i) => entry(i, 10, 0.7, 'hive'));
      await store.open(records);
      const before = sizeOf(s.db);
      let changed = 0;
      for (let pass = 1; pass <= 1000; pass++) {
        s.clock.t += 10 * MINUTE;
        // A curator pass re-scores 20 entries (a tenth of the hive) and rewrites the whole file.
        for (let k = 0; k < 20; k++) {
          const n = (pass * 37 + k * 11) % 200;
          records[n] = { ...records[n]!, confidence: Math.round((0.4 + ((pass * 13 + n) % 60) / 100) * 100) / 100, updated_at: new Date(s.clock.t).toISOString() };
        }
        await store.rewrite(records);
        changed += store.batches.at(-1)?.changed ?? 0;
      }
      const after = sizeOf(s.db);
      const added = after.versions.n - before.versions.n;
      report.count('versions stored by 1,000 curator rewrites of a 200-entry hive', added, 'versions');
      report.figure('average stored version (deflated delta), curator rewrites', (after.versions.bytes - before.versions.bytes) / added, 'B', '≤ 200 B');
      report.figure('history file after 1,000 curator rewrites', after.file / MB, 'MB');
      report.note(`${changed} changed lines recorded from 1,000 rewrites of 200 lines each (unchanged lines cost a hash, nothing stored)`);
    } finally {
      store.close();
      s.cleanup();
    }
  }
}

/** Per entry: is its first and last line kept, and for each of the last 90 days it existed, a version first seen that day? */
function keptChecks(db: HistoryDb, firstLines: Map<string, string>, lastLines: Map<string, string>, activeDays: Map<string, Set<number>>, now: number) {
  const versions = new VersionStore(db);
  const has = (line: string) => versions.text(sha256(line)) === line;
  const dayRows = db.prepare('SELECT first_seen, sha FROM sightings WHERE entry_id = ? AND thinned IS NULL AND first_seen >= ?');
  let first = 0;
  let last = 0;
  let days = 0;
  let dayTotal = 0;
  for (const [id, line] of firstLines) if (has(line)) first++;
  for (const [id, line] of lastLines) if (has(line)) last++;
  const windowStart = now - KEEP_DAILY_DAYS * DAY_MS;
  for (const [id, wanted] of activeDays) {
    const got = new Set((dayRows.all(id, windowStart) as { first_seen: number; sha: string }[]).filter((r) => versions.text(r.sha) !== null).map((r) => Math.floor(r.first_seen / DAY_MS)));
    for (const day of wanted) {
      if (day * DAY_MS < windowStart) continue;
      dayTotal++;
      if (got.has(day)) days++;
    }
  }
  return { first, last, days, dayTotal, entries: firstLines.size };
}

async function year(report: BenchReport): Promise<void> {
  const minutes = Math.round(365 * 24 * 60 * YEAR_SCALE);
  report.section('History — a simulated year within its budget, and queries on it');
  const s = scratch('history-bench-year-');
  const store = new SimulatedStore(s.db, s.clock);
  const passes: ThinReport[] = [];
  const budget = Math.round(DEFAULT_HISTORY_BUDGET_BYTES * Math.min(1, YEAR_SCALE));
  const thinner = new HistoryThinner(s.db, budget, () => s.clock.t, (r) => passes.push(r));
  try {
    let next = 0;
    const live: { n: number; uses: number }[] = Array.from({ length: 100 }, () => ({ n: next++, uses: 0 }));
    const firstLines = new Map<string, string>();
    const lastLines = new Map<string, string>();
    const activeDays = new Map<string, Set<number>>();
    const wrote = (rec: ReturnType<typeof entry>) => {
      const line = JSON.stringify(rec);
      if (!firstLines.has(rec.id)) firstLines.set(rec.id, line);
      lastLines.set(rec.id, line);
      const days = activeDays.get(rec.id) ?? new Set<number>();
      days.add(Math.floor(s.clock.t / DAY_MS));
      activeDays.set(rec.id, days);
    };
    const initial = live.map((e) => entry(e.n, 0));
    initial.forEach(wrote);
    await store.open(initial);
    const g0 = performance.now();
    let pending: ReturnType<typeof entry>[] = [];
    // In the app each batch arrives on a timer; here a turn of the event loop after each batch lets a
    // thinning pass (which yields between its transactions) go on while the year is written.
    const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
    const flush = async () => {
      if (pending.length === 0) return;
      await store.update(...pending);
      pending = [];
      thinner.check();
      await turn();
    };
    let largest = 0;
    for (let minute = 1; minute <= minutes; minute++) {
      s.clock.t = START + minute * MINUTE;
      if (minute % (24 * 60) === 0) {
        await flush();
        // Once a day the plugin evicts its oldest entry past the 100-entry cap for a new one.
        live.shift();
        live.push({ n: next++, uses: 0 });
        const records = live.map((e) => entry(e.n, e.uses));
        wrote(records.at(-1)!);
        await store.rewrite(records);
        thinner.check();
      } else {
        const e = live[minute % live.length]!;
        e.uses++;
        const rec = entry(e.n, e.uses);
        wrote(rec);
        pending.push(rec);
        if (minute % BATCH_MINUTES === 0) await flush();
      }
    }
    await flush();
    await thinner.idle();
    largest = Math.max(largest, ...passes.map((p) => p.before.fileBytes));
    const generateS = (performance.now() - g0) / 1000;
    const size = sizeOf(s.db);
    const now = s.clock.t;
    const checks = keptChecks(s.db, firstLines, lastLines, activeDays, now);
    report.note(
      `${minutes.toLocaleString('en-US')} minutes simulated (${(minutes / 1440).toFixed(0)} days${YEAR_SCALE === 1 ? ', a full year' : `, HISTORY_BENCH_YEAR_SCALE=${YEAR_SCALE}`}), one counter update a minute recorded ${BATCH_MINUTES} minutes to a batch, in ${generateS.toFixed(0)} s, thinned while recording as the app does`,
    );
    report.count('updates recorded', minutes, 'updates');
    if (YEAR_SCALE !== 1) report.note(`budget scaled with the year: ${(budget / MB).toFixed(1)} MB (${DEFAULT_HISTORY_BUDGET_BYTES / MB} MB × ${YEAR_SCALE})`);
    report.figure('largest the file was when a thinning pass began', largest / MB, 'MB');
    report.figure('history file after the year', size.file / MB, 'MB', `≤ ${(budget / MB).toFixed(1)} MB`);
    report.figure('within the budget (1 = yes)', size.file <= budget ? 1 : 0, '', '= 1', 'higher');
    report.figure('thinning passes', passes.length, 'passes');
    report.figure('intermediate versions thinned', passes.reduce((n, p) => n + p.sightingsThinned, 0), 'versions');
    report.figure('thinning transactions (each then yields to the event loop)', passes.reduce((n, p) => n + p.transactions, 0), 'transactions');
    report.figure('time handing free pages back (incremental_vacuum), all passes', passes.reduce((n, p) => n + p.vacuumMs, 0), 'ms');
    report.figure('entries with their first version kept', checks.first, `of ${checks.entries}`, `= ${checks.entries}`, 'higher');
    report.figure('entries with their last version kept', checks.last, `of ${checks.entries}`, `= ${checks.entries}`, 'higher');
    report.figure('entry-days of the last 90 with ≥ 1 version kept', checks.days, `of ${checks.dayTotal}`, `= ${checks.dayTotal}`, 'higher');
    report.figure('sightings kept', size.sightings, 'rows');

    const queries = new HistoryQueries({ db: s.db, lastLooked: now - DAY_MS, caps: { swarm: 100, hive: 200 }, quarantines: () => [], status: { file: 'history.db', setAside: null }, now });
    const span = now - START;
    const at = (k: number) => new Date(START + Math.floor(((k * 7919) % 1000) / 1000 * span)).toISOString();
    const samples = { asOf: [] as ReturnType<typeof measured>[], day: [] as ReturnType<typeof measured>[], week: [] as ReturnType<typeof measured>[] };
    let rowsSeen = 0;
    for (let k = 1; k <= 40; k++) {
      const a = measured(() => queries.asOf(at(k), 0, 1000).entries.length);
      samples.asOf.push(a);
      const since = at(k + 100);
      const d = measured(() => queries.changes(since, new Date(Math.min(now, Date.parse(since) + DAY_MS)).toISOString()).rows.length);
      samples.day.push(d);
      const w = measured(() => queries.changes(since, new Date(Math.min(now, Date.parse(since) + 7 * DAY_MS)).toISOString()).rows.length);
      samples.week.push(w);
      rowsSeen += a.value + d.value + w.value;
    }
    report.count('rows the queries returned', rowsSeen, 'rows');
    const p95 = (list: ReturnType<typeof measured>[], key: 'wall' | 'cpu') => percentile(list.map((m) => m[key]), 95);
    report.note('each query as the operator waits for it (wall) and as the CPU time it costs (on a busy shared machine the wall time includes waiting for a core)');
    report.figure('as-of (a page of 1,000 entries at a moment of the year), p95 wall', p95(samples.asOf, 'wall'), 'ms', '≤ 50 ms');
    report.figure('as-of, p95 CPU', p95(samples.asOf, 'cpu'), 'ms', '≤ 50 ms');
    report.figure('Changes over a day ("since you last looked"), p95 wall', p95(samples.day, 'wall'), 'ms', '≤ 50 ms');
    report.figure('Changes over a day, p95 CPU', p95(samples.day, 'cpu'), 'ms', '≤ 50 ms');
    report.figure('Changes over a week, p95 wall', p95(samples.week, 'wall'), 'ms', '≤ 50 ms');
    report.figure('Changes over a week, p95 CPU', p95(samples.week, 'cpu'), 'ms', '≤ 50 ms');
  } finally {
    await thinner.stop();
    store.close();
    s.cleanup();
  }
}

/**
 * A store's first recording (the history's baseline): every entry's first version at once, as when
 * the console first opens a workspace. Ids are random UUIDs, as the plugin's are: every index keyed
 * by id takes them in no order. It runs on the thread that serves the page, in slices: the longest
 * stall of that thread is what an operator meanwhile waits (a 5 ms timer's lateness).
 */
export async function firstRecording(report: BenchReport): Promise<void> {
  const count = Number(process.env.HISTORY_BENCH_FIRST_ENTRIES ?? 30_000);
  report.section(`History — first recording of a ${count.toLocaleString('en')}-entry store`);
  const s = scratch('history-bench-first-');
  const store = new SimulatedStore(s.db, s.clock);
  try {
    const records = Array.from({ length: count }, (_, i) => {
      const hex = crypto.createHash('md5').update(`first-${i}`).digest('hex');
      return { ...entry(i, i % 50), id: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}` };
    });
    const bare = measured(() => records.forEach((record) => sha256(JSON.stringify(record))));
    store.load(records);
    let lastTick = performance.now();
    let longest = 0;
    const probe = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - lastTick - 5);
      lastTick = now;
    }, 5);
    await store.recordBaseline();
    clearInterval(probe);
    const recorded = store.batches.reduce((n, b) => n + b.added, 0);
    report.count('entries recorded', recorded, 'entries', `= ${count}`);
    report.figure('first recording, wall', store.lastRecordMs, 'ms');
    report.figure('first recording, CPU time', store.lastRecordCpuMs, 'ms');
    report.figure('first recording CPU / a bare sha256 of every line', store.lastRecordCpuMs / bare.cpu, '×');
    report.figure('longest stall of the recording thread meanwhile', longest, 'ms');
    report.figure('history file after it', sizeOf(s.db).file / MB, 'MB');
  } finally {
    store.close();
    s.cleanup();
  }
}

export async function run(report: BenchReport): Promise<void> {
  await firstRecording(report);
  await recordingCost(report);
  await sizes(report);
  await year(report);
}
