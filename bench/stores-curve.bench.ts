/**
 * The stores cost curve (issue 21): ingest and re-open of a workspace at several sizes (1k, 10k
 * and 100k knowledge entries by default; `--sizes` overrides), each size with the full bench's
 * proportions (10 event lines and 5 receipt records per entry), and the growth exponent k of each
 * figure (time ∝ nᵏ, least squares on log-log). Goal: k ≤ 1.1 — cost that grows with the data,
 * not faster.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { growthExponent, type BenchOptions, type BenchReport } from './report';
import { runChild, writeData } from './stores.bench';
import { createConsoleCore } from '../main/core/console-core';

const DEFAULT_SIZES = [1_000, 10_000, 100_000];

interface Point {
  n: number;
  ingestMs: number;
  reopenMs: number;
}

async function measure(entries: number): Promise<Point> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stores-curve-'));
  const project = path.join(root, 'project');
  const hive = path.join(root, 'hive');
  const userDataDir = path.join(root, 'user-data');
  try {
    writeData(project, hive, { events: 10 * entries, entries, receipts: 5 * entries });
    // Ingest in a child process (a fresh heap, as in the stores section); then re-open here.
    const ingest = runChild(project, hive, userDataDir);
    const t0 = performance.now();
    const core = await createConsoleCore({ userDataDir, host: 'browser', version: 'bench' }, { project, hive });
    try {
      const summary = await core.dispatcher.call('stores.summary', {});
      if (!summary.ok) throw new Error(`stores.summary: ${summary.error.message}`);
      return { n: entries, ingestMs: ingest.wallMs, reopenMs: performance.now() - t0 };
    } finally {
      await core.dispose();
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

export async function run(report: BenchReport, options: BenchOptions = {}): Promise<void> {
  const sizes = options.sizes ?? DEFAULT_SIZES;
  // One section name whatever the sizes, so each size's figures meet the same figures of earlier runs.
  report.section('Stores cost curve');
  report.note(`sizes: ${sizes.map((n) => n.toLocaleString('en')).join(' / ')} knowledge entries`);
  const points: Point[] = [];
  for (const n of sizes) {
    const point = await measure(n);
    points.push(point);
    report.figure(`ingest at ${n.toLocaleString('en')} entries`, point.ingestMs, 'ms');
    report.figure(`re-open (index ready, unchanged files) at ${n.toLocaleString('en')} entries`, point.reopenMs, 'ms');
  }
  report.count('sizes measured', points.length, 'sizes');
  report.figure('ingest growth exponent k (time ∝ nᵏ)', growthExponent(points.map((p) => ({ n: p.n, value: p.ingestMs }))), '', '≤ 1.1');
  report.figure('re-open growth exponent k (time ∝ nᵏ)', growthExponent(points.map((p) => ({ n: p.n, value: p.reopenMs }))), '', '≤ 1.1');
  report.note(`load average after the section: ${os.loadavg().map((l) => l.toFixed(2)).join(', ')}`);
}
