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
