/**
 * Demo benchmark (issue 20): what the scripted week adds to the demo's first start. Baseline in the same run: the
 * demo generated and its store index built once (what a first start cost before the week; the console then reuses
 * that index). Measured: the demo generated with its week replayed through the index and the history recorder.
 * DEMO_BENCH_ROUNDS overrides the rounds (default 3).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchReport } from './report';
import { percentile } from './report';
import { resolveWorkspacePaths } from '../main/core/platform/paths/workspace-paths';
import { StoreIndexService } from '../main/core/store-index/store-index-service';
import { generateDemo, markDemoGenerated } from '../main/demo/ensure-demo';
import { ensureDemoWithWeek } from '../main/demo/week/ensure-demo-week';

const ROUNDS = Number(process.env.DEMO_BENCH_ROUNDS ?? 3);

export async function run(report: BenchReport): Promise<void> {
  report.section('Demo — first start with the scripted week');
  const now = Date.now();
  const plain: number[] = [];
  const week: number[] = [];
  let steps = 0;
  let writes = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const a = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-bench-plain-'));
    const b = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-bench-week-'));
    try {
      const p0 = performance.now();
      const location = generateDemo(a, now);
      markDemoGenerated(a, now);
      const index = new StoreIndexService(resolveWorkspacePaths(location.projectDir, location.hiveDir, 'demo', true), path.join(a, 'index'), { watch: false });
      await index.ready;
      await index.close();
      plain.push(performance.now() - p0);
      const w0 = performance.now();
      const { replay } = await ensureDemoWithWeek(b, now);
      week.push(performance.now() - w0);
      steps = replay?.steps ?? 0;
      writes = replay?.writes ?? 0;
    } finally {
      fs.rmSync(a, { recursive: true, force: true });
      fs.rmSync(b, { recursive: true, force: true });
    }
  }
  report.count('moments of the week replayed', steps, 'steps');
  report.count('store files written by the week', writes, 'writes');
  report.figure('baseline: demo generated + store index built, p50', percentile(plain, 50), 'ms');
  report.figure('demo generated with its week replayed into history, p50', percentile(week, 50), 'ms');
  report.figure('with the week / baseline', percentile(week, 50) / percentile(plain, 50), '×');
}
