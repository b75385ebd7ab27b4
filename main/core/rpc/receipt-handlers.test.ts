import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../rules/canonical-json';
import { ChainBuilder } from '../../demo/receipt-chain';
import { createConsoleCore, type ConsoleCore } from '../console-core';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function openProject(project: string): Promise<ConsoleCore> {
  const core = await createConsoleCore({ userDataDir: tempDir('receipt-handlers-ud-'), host: 'browser', version: 'test' }, { project, hive: tempDir('receipt-hive-') });
  cleanups.push(() => core.dispose());
  return core;
}

async function call<T = any>(core: ConsoleCore, name: string, input: unknown = {}): Promise<T> {
  const result = await core.dispatcher.call(name, input);
  if (!result.ok) throw new Error(`${name} failed: ${result.error.message} ${JSON.stringify(result.error.issues ?? [])}`);
  return result.value as T;
}

function project(): { dir: string; journal: string; builder: ChainBuilder } {
  const dir = tempDir('receipt-project-');
  fs.mkdirSync(path.join(dir, '.swarm'));
  const builder = new ChainBuilder();
  builder.membership('t1', [{ entry_id: 'crit-1', priority: 'critical' }, { entry_id: 'adv-1' }]);
  builder.terminal('t1', 'adv-1', 'n_a', 'delegate', { reason: 'not this task' });
  builder.membership('t2', [{ entry_id: 'crit-2', priority: 'critical' }]);
  builder.gateRelease('staleness', [{ trace_id: 't2', entry_id: 'crit-2' }]);
  const journal = path.join(dir, '.swarm', 'knowledge-receipts-v2.jsonl');
  builder.write(journal);
  return { dir, journal, builder };
}

const until = async <T>(read: () => T | undefined, what: string, timeoutMs = 15_000): Promise<T> => {
  const start = Date.now();
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('receipts.* handlers', () => {
  it('answer every query within the contract, read-only', async () => {
    const p = project();
    const before = sha256Hex(fs.readFileSync(p.journal));
    const core = await openProject(p.dir);
    const integrity = await call(core, 'receipts.integrity');
    expect(integrity).toMatchObject({ verdict: 'ok', files: [{ kind: 'journal', state: 'ok', records: 4 }, { state: 'absent' }, { state: 'absent' }, { state: 'absent' }] });
    const traces = await call(core, 'receipts.traces', { limit: 10 });
    expect(traces.traces.map((t: { traceId: string }) => t.traceId)).toEqual(['t2', 't1']);
    const obligations = await call(core, 'receipts.obligations', { status: 'all' });
    expect(obligations.obligations.map((o: { entryId: string; status: string }) => `${o.entryId}:${o.status}`)).toEqual(['crit-1:open', 'crit-2:released']);
    expect(obligations.escapeHatches).toMatchObject({ maxGateDenials: 5, gateStalenessMs: 600_000 });
    const funnel = await call(core, 'receipts.funnel', { entry: 'adv' });
    expect(funnel.rows).toEqual([expect.objectContaining({ entryId: 'adv-1', total: expect.objectContaining({ shown: 1, answered: 1, n_a: 1 }) })]);
    const phases = await call(core, 'receipts.phases');
    expect(phases.phases).toEqual([expect.objectContaining({ phase: 'Phase 4', state: 'open', open: 1, released: 1 })]);
    const sources = await call(core, 'receipts.sources');
    expect(sources.sources.map((s: { id: string; present: boolean }) => `${s.id}:${s.present}`)).toEqual([
      'journal:true',
      'snapshot:false',
      'archive:false',
      'quarantine:false',
      'knowledge-application:false',
      'knowledge-events:false',
      'unacknowledged-criticals:false',
      'swarm-events:false',
    ]);
    expect(sha256Hex(fs.readFileSync(p.journal))).toBe(before);
  });

  it('rejects unbounded or unknown input', async () => {
    const core = await openProject(project().dir);
    expect(await core.dispatcher.call('receipts.traces', { limit: 100_000 })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await core.dispatcher.call('receipts.traces', { phase: 'x'.repeat(500) })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await core.dispatcher.call('receipts.obligations', { status: 'all', extra: 1 })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });

  it('pushes a re-verification when the journal grows and when it is corrupted', async () => {
    const p = project();
    const core = await openProject(p.dir);
    await call(core, 'receipts.integrity');
    const events: any[] = [];
    const subscribed = core.dispatcher.subscribe('receipts.changes', {}, (event) => events.push(event));
    if (!subscribed.ok) throw new Error(subscribed.error.message);
    cleanups.push(subscribed.value);
    // Let the watcher settle before touching the file.
    const { receiptsOf } = await import('./receipt-handlers');
    await receiptsOf(core.context.workspaces.current).watching;

    p.builder.terminal('t1', 'crit-1', 'applied', 'reviewer');
    fs.writeFileSync(p.journal, p.builder.text());
    const grown = await until(() => events.find((e) => e.integrity.files[0].records === 5), 'the grown journal to be verified');
    expect(grown).toMatchObject({ kind: 'reverified', changed: ['knowledge-receipts-v2.jsonl'], integrity: { verdict: 'ok' } });
    const obligations = await call(core, 'receipts.obligations', { status: 'open' });
    expect(obligations.obligations).toEqual([]);

    fs.writeFileSync(p.journal, p.builder.text().replace('"outcome":"applied"', '"outcome":"ignored"'));
    const broken = await until(() => events.find((e) => e.integrity.verdict === 'corrupt'), 'the corruption to be reported');
    expect(broken.integrity.files[0]).toMatchObject({ state: 'corrupt', break: { line: 5, defect: 'hash_mismatch' } });
  });
});
