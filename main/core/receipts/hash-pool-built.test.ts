import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeReceiptJournal } from '../../demo/generate';
import { V2_FILES } from '../rules/receipt-format';

// What users run is the BUILT CLI (`npm run build`): its verification must hash on the compiled
// out/main/receipt-hash-worker.js threads, with tsx unloadable (nothing compiled at run time).
const repo = path.resolve(__dirname, '..', '..', '..');
const bin = path.join(repo, 'bin', 'swarm-console.mjs');
const noTsx = path.join(repo, 'testing', 'cli', 'no-tsx.mjs');
const workerProbe = path.join(repo, 'testing', 'cli', 'worker-probe.mjs');

let scratch: string;
beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'built-hash-worker-'));
  fs.mkdirSync(path.join(scratch, 'project', '.swarm'), { recursive: true });
  // Over the size below which verification stays in-thread (verify-file.ts: POOL_MIN_BYTES).
  writeReceiptJournal(path.join(scratch, 'project', '.swarm', V2_FILES.journal), { records: 24_000, seed: 3 });
});
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe('the built receipt hash worker', () => {
  it('verifies a large journal on out/main/receipt-hash-worker.js threads, one per core', async () => {
    expect(fs.statSync(path.join(scratch, 'project', '.swarm', V2_FILES.journal)).size).toBeGreaterThan(16 * 1024 * 1024);
    const log = path.join(scratch, 'workers.jsonl');
    const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        ['--import', noTsx, '--import', workerProbe, bin, 'verify', '--project', path.join(scratch, 'project'), '--json'],
        { cwd: repo, env: { ...process.env, WORKER_PROBE_LOG: log }, timeout: 120_000 },
        (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      ),
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const journal = (JSON.parse(result.stdout) as { files: { kind: string; state: string; records: number }[] }).files.find((f) => f.kind === 'journal');
    expect(journal).toMatchObject({ state: 'ok', records: 24_000 });
    const online = fs
      .readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { event: string; file: string; name: string })
      .filter((r) => r.event === 'online' && r.name === 'receipt-hash-worker');
    expect(online.map((r) => r.file)).toEqual(Array.from({ length: os.availableParallelism() }, () => path.join(repo, 'out', 'main', 'receipt-hash-worker.js')));
  }, 150_000);
});
