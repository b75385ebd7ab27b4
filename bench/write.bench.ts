/**
 * Write benchmark (issue 11): a human-only hive quarantine of 2 entries in a 10,000-entry hive,
 * end to end (token check, confirmation, backup + manifest, lock, re-verify, byte-exact rewrite,
 * sidecar and audit appends, verify after) and the time the plugin's hive lock is held (goal p95
 * ≤ 250 ms; the plugin's knowledge writers give up after ≈1.7 s). Baseline in the same run: a bare
 * read + temp write + rename of the same file, the least any rewrite of the store costs. Each round
 * is rolled back so every commit sees the same store. WRITE_BENCH_ENTRIES / WRITE_BENCH_ROUNDS override.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { BenchReport } from './report';
import { percentile } from './report';
import { HIVE_QUARANTINE_OP, HIVE_ROLLBACK_OP } from '../main/core/hive/hive-paths';
import { commitHiveQuarantine, previewHiveQuarantine } from '../main/core/hive/quarantine';
import { commitHiveRollback, previewHiveRollback } from '../main/core/hive/rollback';
import { HumanServices } from '../main/core/human/runner';
import { FakeConfirmation } from '../testing/human/fake-confirmation';
import { fixtureId, makeHiveFixture } from '../testing/human/hive-fixture';
import { resolveWorkspacePaths } from '../main/core/platform/paths/workspace-paths';

const ENTRIES = Number(process.env.WRITE_BENCH_ENTRIES ?? 10_000);
const ROUNDS = Number(process.env.WRITE_BENCH_ROUNDS ?? 40);

export async function run(report: BenchReport): Promise<void> {
  report.section('Write — hive quarantine of 2 entries');
  const fixture = makeHiveFixture(ENTRIES, 'write-bench-');
  try {
    const size = fs.statSync(fixture.store).size;
    report.note(`hive: ${ENTRIES.toLocaleString('en-US')} entries, ${(size / 1024 / 1024).toFixed(1)} MiB; ${ROUNDS} rounds, each rolled back`);
    const held: number[] = [];
    let current: number[] = [];
    const services = new HumanServices({ userDataDir: fixture.userData, consoleVersion: 'bench', revertCheckMs: 3_600_000, onLockHeld: (ms) => current.push(ms) });
    services.describe(HIVE_QUARANTINE_OP, () => 'hive quarantine of 2 entries');
    services.describe(HIVE_ROLLBACK_OP, () => 'rollback');
    const caller = { host: 'electron' as const, confirmation: new FakeConfirmation(true) };
    const paths = resolveWorkspacePaths(fixture.project, fixture.hive, 'flag', false);
    const previews: number[] = [];
    const commits: number[] = [];
    const baseline: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const ids = [fixtureId(1 + ((round * 7919) % ENTRIES)), fixtureId(1 + ((round * 104729 + 17) % ENTRIES))];
      if (ids[0] === ids[1]) ids[1] = fixtureId(ENTRIES);

      const b0 = performance.now();
      const bytes = fs.readFileSync(fixture.store);
      const temp = path.join(fixture.hive, `shared-learnings.jsonl.tmp.bench.${round}`);
      fs.writeFileSync(temp, bytes);
      fs.renameSync(temp, fixture.store);
      baseline.push(performance.now() - b0);

      const p0 = performance.now();
      const preview = await previewHiveQuarantine(services, caller, paths, ids);
      previews.push(performance.now() - p0);
      current = [];
      const c0 = performance.now();
      await commitHiveQuarantine(services, caller, paths, { token: preview.token, reason: 'bench', confirmation: {} });
      commits.push(performance.now() - c0);
      held.push(...current);
      const rollback = await previewHiveRollback(services, caller, paths, { prefix: preview.token12, allowUnsigned: false });
      await commitHiveRollback(services, caller, paths, { token: rollback.token, reason: 'bench', confirmation: {} });
    }
    report.figure('hive lock held per commit, p50', percentile(held, 50), 'ms');
    report.figure('hive lock held per commit, p95', percentile(held, 95), 'ms', '≤ 250 ms');
    report.figure('commit end to end, p50', percentile(commits, 50), 'ms');
    report.figure('commit end to end, p95', percentile(commits, 95), 'ms');
    report.figure('preview (read, hash, blast radius, token), p50', percentile(previews, 50), 'ms');
    report.figure('baseline: bare read + temp write + rename of the hive, p50', percentile(baseline, 50), 'ms');
    report.figure('lock held p50 / bare rewrite p50', percentile(held, 50) / percentile(baseline, 50), '×');
  } finally {
    fixture.cleanup();
  }
}
