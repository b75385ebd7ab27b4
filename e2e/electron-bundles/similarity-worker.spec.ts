import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { builtOutDir, launchMainBundle } from './main-bundle';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');

// The desktop app's knowledge model clusters on a worker thread started by file: from the built
// out/main/index.js it must find out/main/similarity-worker.js (main/core/knowledge/similarity-runner.ts),
// not fall back to computing in-thread. The CLI's side is main/cli/built-cli.test.ts.
test('the built main bundle starts the similarity worker from out/main/similarity-worker.js', async () => {
  test.setTimeout(240_000);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'console-worker-'));
  const log = path.join(scratch, 'workers.jsonl');
  const userDataDir = path.join(scratch, 'user-data');
  fs.mkdirSync(userDataDir);
  const run = launchMainBundle({
    outDir: builtOutDir,
    userDataDir,
    execArgv: ['--import', path.join(repoRoot, 'testing', 'cli', 'worker-probe.mjs')],
    env: { WORKER_PROBE_LOG: log },
  });
  const records = () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { event: string; file: string; name: string }) : []);
  try {
    await run.command('ready');
    await run.waitForRecord('BrowserWindow.loaded');
    // The first knowledge query opens the knowledge model, whose warm-up clusters near-duplicates in the worker.
    const inboxes = await run.command<{ value: { ok: boolean } }>('invoke', { channel: 'swarm:knowledge.inboxes', args: [{}] });
    expect(inboxes.value.ok).toBe(true);
    await expect
      .poll(() => (run.output().includes('similarity worker unavailable') ? 'in-thread' : records().find((r) => r.event === 'online' && r.name === 'similarity-worker')?.file), { timeout: 120_000 })
      .toBe(path.join(builtOutDir, 'main', 'similarity-worker.js'));
    await run.command('closeAllWindows');
    expect(await run.exited).toEqual({ code: 0, signal: null });
  } finally {
    run.kill();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
});
