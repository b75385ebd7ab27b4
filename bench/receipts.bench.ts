/**
 * Receipts benchmark (issue 5): verification throughput of a 500,000-record V2 receipt journal
 * as a ratio to a bare SHA-256 over the same bytes, both measured in this run on the same file.
 *
 * Both sides read the file the same way (synchronous 4 MiB reads from the page cache) and run
 * interleaved, best of ROUNDS. Wall time is what an operator waits; CPU time (user + system of
 * this process) is also reported because the development machine is shared and wall time
 * there depends on what else runs. RECEIPTS_BENCH_RECORDS overrides the record count.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchReport } from './report';
import { writeReceiptJournal } from '../main/demo/generate';
import { verifyChainFile } from '../main/core/receipts/verify-file';

const ROUNDS = 5;
const RECORDS = Number(process.env.RECEIPTS_BENCH_RECORDS ?? 500_000);

interface Timing {
  wallMs: number;
  cpuMs: number;
}

async function timed(work: () => unknown): Promise<Timing> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await work();
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000 };
}

/** The baseline: one SHA-256 over the whole file, read in the same chunks the verifier reads. */
function bareSha256(file: string): string {
  const hash = crypto.createHash('sha256');
  const fd = fs.openSync(file, 'r');
  const buffer = Buffer.allocUnsafe(4 * 1024 * 1024);
  try {
    for (let read = fs.readSync(fd, buffer, 0, buffer.length, null); read > 0; read = fs.readSync(fd, buffer, 0, buffer.length, null)) {
      hash.update(buffer.subarray(0, read));
    }
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}

const best = (samples: Timing[], key: keyof Timing) => Math.min(...samples.map((s) => s[key]));

export async function run(report: BenchReport): Promise<void> {
  report.section('Receipts — V2 journal verification');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'receipts-bench-'));
  try {
    const file = path.join(dir, 'knowledge-receipts-v2.jsonl');
    const generated = await timed(() => writeReceiptJournal(file, { records: RECORDS, seed: 5 }));
    const bytes = fs.statSync(file).size;
    const mb = bytes / 1024 / 1024;
    report.note(`journal: ${RECORDS.toLocaleString('en-US')} records, ${mb.toFixed(1)} MiB (${Math.round(bytes / RECORDS)} B/record), generated in ${(generated.wallMs / 1000).toFixed(1)} s`);

    // Warm the page cache and the JIT once on each side before measuring.
    bareSha256(file);
    const warm = await verifyChainFile('journal', file);
    if (warm.state !== 'ok' || warm.verifiedRecords !== RECORDS) throw new Error(`generated journal did not verify: ${warm.state} ${JSON.stringify(warm.break)}`);

    const sha: Timing[] = [];
    const verify: Timing[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      sha.push(await timed(() => bareSha256(file)));
      verify.push(
        await timed(async () => {
          const result = await verifyChainFile('journal', file);
          if (result.state !== 'ok') throw new Error(`verification failed: ${result.state}`);
        }),
      );
    }

    const verifyWall = best(verify, 'wallMs');
    const shaWall = best(sha, 'wallMs');
    report.figure('verify throughput (wall)', mb / (verifyWall / 1000), 'MiB/s');
    report.figure('bare SHA-256 throughput (wall)', mb / (shaWall / 1000), 'MiB/s');
    report.figure('verified records per second (wall)', RECORDS / (verifyWall / 1000), 'records/s');
    report.figure('verify ÷ bare SHA-256 (wall, best of 5)', shaWall / verifyWall, '×', '≥ 0.3');
    report.figure('verify ÷ bare SHA-256 (CPU time, best of 5)', best(sha, 'cpuMs') / best(verify, 'cpuMs'), '×', '≥ 0.3');

    // The console's own load path also parses every record for the receipts model.
    const exact = await timed(() => verifyChainFile('journal', file, { onRecord: () => undefined }));
    report.figure('verify + parse every record (the view’s load path)', mb / (exact.wallMs / 1000), 'MiB/s');
    report.note(`per-round wall ms — sha: ${sha.map((s) => s.wallMs.toFixed(0)).join(', ')}; verify: ${verify.map((s) => s.wallMs.toFixed(0)).join(', ')}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
