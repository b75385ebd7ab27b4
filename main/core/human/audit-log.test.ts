import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AuditLog } from './audit-log';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function logWith(n: number): Promise<AuditLog> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-'));
  dirs.push(dir);
  const log = new AuditLog(path.join(dir, 'audit.jsonl'));
  await Promise.all(Array.from({ length: n }, (_, i) => log.append({ event: 'preview', op: 'hive.quarantine.commit', outcome: 'ok', host: 'electron', ids: [`id-${i}`] })));
  return log;
}

describe('the console audit log', () => {
  it('chains each record to the previous one, also when appends race', async () => {
    const log = await logWith(20);
    const { records, chain } = log.read();
    expect(chain).toEqual({ ok: true, records: 20, brokenAt: null, problem: null });
    expect(records.map((r) => r?.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it.each([
    ['an edited record', (lines: string[]) => (lines[3] = (lines[3] as string).replace('id-3', 'id-x')), 5, /previous record/],
    ['a removed record', (lines: string[]) => lines.splice(2, 1), 3, /sequence 4 where 3/],
    ['two swapped records', (lines: string[]) => ([lines[1], lines[2]] = [lines[2] as string, lines[1] as string]), 2, /sequence 3 where 2/],
    ['a line that is not JSON', (lines: string[]) => (lines[4] = '{oops'), 5, /not JSON/],
  ])('breaks on %s and says where', async (_name, tamper, brokenAt, problem) => {
    const log = await logWith(6);
    const lines = fs.readFileSync(log.file, 'utf8').trim().split('\n');
    tamper(lines);
    fs.writeFileSync(log.file, `${lines.join('\n')}\n`);
    const { chain } = log.read();
    expect(chain).toMatchObject({ ok: false, brokenAt });
    expect(chain.problem).toMatch(problem);
  });

  it('keeps one chain when two processes append at the same time', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-procs-'));
    dirs.push(dir);
    const file = path.join(dir, 'human-only', 'audit.jsonl');
    const repo = path.resolve(__dirname, '../../..');
    // Both children wait for the same moment, however long each took to start.
    const startAt = String(Date.now() + 8_000);
    const child = (tag: string) =>
      new Promise<number | null>((resolve) =>
        spawn(process.execPath, [path.join(repo, 'bin', 'run-ts.mjs'), path.join(repo, 'testing', 'human', 'audit-child.ts'), file, '60', tag, startAt], { cwd: repo, stdio: 'inherit' }).on('exit', resolve),
      );
    expect(await Promise.all([child('one'), child('two')])).toEqual([0, 0]);
    const { records, chain } = new AuditLog(file).read();
    expect(chain).toMatchObject({ ok: true, records: 120 });
    expect(records.filter((r) => r?.host === 'one')).toHaveLength(60);
  }, 120_000);
});

describe('the audit log anchor (sequence + head hash, HMAC-signed)', () => {
  const secret = Buffer.alloc(32, 9);

  async function anchoredLog(n: number, key: Buffer | null = secret): Promise<AuditLog> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-anchor-'));
    dirs.push(dir);
    const log = new AuditLog(path.join(dir, 'audit.jsonl'), () => key);
    for (let i = 0; i < n; i++) await log.append({ event: 'preview', op: 'hive.quarantine.commit', outcome: 'ok', host: 'electron', ids: [`id-${i}`] });
    return log;
  }
  const lines = (log: AuditLog) => fs.readFileSync(log.file, 'utf8').trim().split('\n');
  const rewrite = (log: AuditLog, kept: string[]) => fs.writeFileSync(log.file, kept.length ? `${kept.join('\n')}\n` : '');

  it('matches after every append, also when appends race', async () => {
    const log = await anchoredLog(0);
    await Promise.all(Array.from({ length: 8 }, (_, i) => log.append({ event: 'preview', op: 'x', outcome: 'ok', host: 'h', ids: [`r-${i}`] })));
    expect(log.read().anchor).toEqual({ state: 'ok', problems: [] });
    expect(JSON.parse(fs.readFileSync(log.anchorFile, 'utf8'))).toMatchObject({ v: 1, seq: 8, tamper: [] });
    expect(fs.statSync(log.anchorFile).mode & 0o777).toBe(0o600);
  });

  it.each([
    ['a rewritten last record (chain still valid)', (log: AuditLog) => rewrite(log, [...lines(log).slice(0, 4), (lines(log)[4] as string).replace('id-4', 'id-x')]), /record 5 is not the one anchored \(rewritten tail\)/],
    ['the last two records deleted', (log: AuditLog) => rewrite(log, lines(log).slice(0, 3)), /ends at record 3; the anchor says 5 \(truncated: 2 record\(s\) removed/],
    ['an emptied log', (log: AuditLog) => rewrite(log, []), /the log is empty; the anchor says it held 5 records \(emptied log\)/],
    ['a deleted log', (log: AuditLog) => fs.rmSync(log.file), /the log is missing; the anchor says it held 5 records \(deleted log\)/],
    ['an edited anchor', (log: AuditLog) => fs.writeFileSync(log.anchorFile, fs.readFileSync(log.anchorFile, 'utf8').replace('"seq":5', '"seq":3')), /signature does not match.*mismatched anchor/],
    ['a deleted anchor', (log: AuditLog) => fs.rmSync(log.anchorFile), /the anchor is missing, but record #1 was written with one/],
  ])('names %s, and the next append does not hide it', async (_name, tamper, problem) => {
    const log = await anchoredLog(5);
    expect(log.read()).toMatchObject({ chain: { ok: true }, anchor: { state: 'ok' } });
    tamper(log);
    const seen = log.read().anchor;
    expect(seen.state).toBe('problem');
    expect(seen.problems.join('\n')).toMatch(problem);
    await log.append({ event: 'preview', op: 'x', outcome: 'ok', host: 'h' });
    const after = log.read().anchor;
    expect(after.state).toBe('problem');
    expect(after.problems.join('\n')).toMatch(problem);
  });

  it('a log written before anchoring says so, and is anchored on the next append', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-old-'));
    dirs.push(dir);
    const old = new AuditLog(path.join(dir, 'audit.jsonl'));
    await old.append({ event: 'preview', op: 'x', outcome: 'ok', host: 'h' });
    await old.append({ event: 'preview', op: 'x', outcome: 'ok', host: 'h' });
    const upgraded = new AuditLog(old.file, () => secret);
    expect(upgraded.read().anchor).toEqual({ state: 'absent', problems: [], note: 'no anchor yet (log predates anchoring)' });
    await upgraded.append({ event: 'preview', op: 'x', outcome: 'ok', host: 'h' });
    expect(upgraded.read()).toMatchObject({ chain: { ok: true, records: 3 }, anchor: { state: 'ok' } });
  });

  it('an anchor signed with another secret is a mismatched anchor', async () => {
    const log = await anchoredLog(2);
    expect(new AuditLog(log.file, () => Buffer.alloc(32, 1)).read().anchor.problems.join('\n')).toMatch(/signature does not match/);
  });
});
