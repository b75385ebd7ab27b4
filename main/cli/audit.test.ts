import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../core/human/audit-log';
import { humanStatePaths } from '../core/human/secret';

const CLI = path.resolve(__dirname, '../../bin/swarm-console.mjs');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

describe('the CLI and human-only commands', () => {
  it.each(['hive-quarantine', 'quarantine', 'restore', 'promote', 'skill-apply'])('`swarm-console %s` refuses with exit 2 and points to the console window', async (name) => {
    const result = await cli([name, '--ids', 'abc', '--yes']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`swarm-console ${name}: this is a human-only command; it runs only from the console window`);
    expect(result.stderr).toContain('swarm-console serve');
    expect(result.stdout).toBe('');
  }, 60_000);

  it('`swarm-console audit` lists the log read-only and exits 3 when the chain is broken', async () => {
    const userData = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-cli-'));
    dirs.push(userData);
    const log = new AuditLog(humanStatePaths(userData).audit);
    await log.append({ event: 'preview', op: 'hive.quarantine.commit', outcome: 'ok', host: 'browser', token12: 'abcdef012345', ids: ['id-1'] });
    await log.append({ event: 'refusal', op: 'hive.quarantine.commit', outcome: 'refused', host: 'browser', binding: 'confirmation', message: 'Wrong code\u001b[2J' });
    const before = fs.readFileSync(log.file);

    const ok = await cli(['audit', '--user-data', userData]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('#1  ');
    expect(ok.stdout).toContain('binding=confirmation');
    expect(ok.stdout).not.toContain('\u001b');
    expect(ok.stdout).toContain('Chain intact (2 records).');
    const json = await cli(['audit', '--json', '--user-data', userData]);
    expect(JSON.parse(json.stdout)).toMatchObject({ chain: { ok: true, records: 2 }, records: [{ seq: 1, token12: 'abcdef012345' }, { seq: 2 }] });
    expect(fs.readFileSync(log.file).equals(before)).toBe(true);

    fs.writeFileSync(log.file, before.toString('utf8').replace('id-1', 'id-2'));
    const broken = await cli(['audit', '--user-data', userData]);
    expect(broken.code).toBe(3);
    expect(broken.stdout).toContain('CHAIN BROKEN at record 2');
    expect((await cli(['audit', '--json', '--user-data', userData])).code).toBe(3);
  }, 120_000);
});
