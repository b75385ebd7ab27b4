/**
 * Receipts benchmark (issues 5, 21): verification throughput of a 500,000-record V2 receipt
 * journal as a ratio to a bare SHA-256 over the same bytes, all measured in this run on the same
 * file: single-threaded (line by line) and on every core (record hashes on worker threads).
 *
 * Both sides read the file the same way (synchronous 4 MiB reads from the page cache) and run
 * interleaved, best of ROUNDS. Wall time is what an operator waits; CPU time (user + system of
 * this process, worker threads included) is also reported because the development machine is
 * shared and wall time there depends on what else runs. RECEIPTS_BENCH_RECORDS overrides the
 * record count. From the sources the workers run the TypeScript entry through tsx (the test kit
 * testing/receipts/source-hash-worker.ts); the built app runs out/main/receipt-hash-worker.js.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchReport } from './report';
import { writeReceiptJournal } from '../main/demo/generate';
import { HashPool } from '../main/core/receipts/hash-pool';
import { verifyChainFile, type VerifyOptions } from '../main/core/receipts/verify-file';
import { sourceHashWorkerSpec } from '../testing/workers/source-worker';

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

    const pool = new HashPool({ spec: sourceHashWorkerSpec });
    try {
      if (!(await pool.parallel())) throw new Error('the hash workers did not start');
      const ways: [string, VerifyOptions][] = [
        ['single-threaded', { hashPool: null }],
        [`on every core (${pool.size} hash workers)`, { hashPool: pool }],
      ];
      // Warm the page cache and the JIT once on each side before measuring.
      bareSha256(file);
      for (const [way, options] of ways) {
        const warm = await verifyChainFile('journal', file, options);
        if (warm.state !== 'ok' || warm.verifiedRecords !== RECORDS) throw new Error(`generated journal did not verify ${way}: ${warm.state} ${JSON.stringify(warm.break)}`);
      }

      const sha: Timing[] = [];
      const verify: Timing[][] = ways.map(() => []);
      for (let round = 0; round < ROUNDS; round++) {
        sha.push(await timed(() => bareSha256(file)));
        for (let w = 0; w < ways.length; w++) {
          verify[w]!.push(
            await timed(async () => {
              const result = await verifyChainFile('journal', file, ways[w]![1]);
              if (result.state !== 'ok') throw new Error(`verification failed: ${result.state}`);
            }),
          );
        }
      }

      const shaWall = best(sha, 'wallMs');
      report.figure('bare SHA-256 throughput (wall)', mb / (shaWall / 1000), 'MiB/s');
      for (let w = 0; w < ways.length; w++) {
        const [way] = ways[w]!;
        const samples = verify[w]!;
        const verifyWall = best(samples, 'wallMs');
        report.figure(`verify throughput, ${way} (wall)`, mb / (verifyWall / 1000), 'MiB/s');
        report.figure(`verified records per second, ${way} (wall)`, RECORDS / (verifyWall / 1000), 'records/s');
        report.figure(`verify ÷ bare SHA-256, ${way} (wall, best of ${ROUNDS})`, shaWall / verifyWall, '×', w === 0 ? '≥ 0.3' : '≥ 1');
        report.figure(`verify ÷ bare SHA-256, ${way} (CPU time of all threads, best of ${ROUNDS})`, best(sha, 'cpuMs') / best(samples, 'cpuMs'), '×', undefined, 'higher');
      }
      report.figure('every core ÷ single-threaded (wall)', best(verify[0]!, 'wallMs') / best(verify[1]!, 'wallMs'), '×', undefined, 'higher');

      // The console's own load path also parses every record for the receipts model (in this thread).
      const exact = await timed(() => verifyChainFile('journal', file, { onRecord: () => undefined }));
      report.figure('verify + parse every record (the view’s load path)', mb / (exact.wallMs / 1000), 'MiB/s');
      report.note(`per-round wall ms — sha: ${sha.map((s) => s.wallMs.toFixed(0)).join(', ')}; ${ways.map(([way], w) => `${way}: ${verify[w]!.map((s) => s.wallMs.toFixed(0)).join(', ')}`).join('; ')}`);
      report.note(`load average after the section: ${os.loadavg().map((l) => l.toFixed(2)).join(', ')} (${os.cpus().length} cores)`);
    } finally {
      await pool.dispose();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
