import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../core/human/audit-log';
import { humanStatePaths, loadOrCreateSecret } from '../core/human/secret';

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

  it('`swarm-console audit` sees the tail: truncation, a rewritten tail, an emptied or missing log, a mismatched anchor (exit 3)', async () => {
    const userData = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-cli-anchor-'));
    dirs.push(userData);
    const paths = humanStatePaths(userData);
    // A log from before anchoring: said once, not a failure.
    const old = new AuditLog(paths.audit);
    await old.append({ event: 'preview', op: 'hive.quarantine.commit', outcome: 'ok', host: 'browser' });
    const legacy = await cli(['audit', '--user-data', userData]);
    expect(legacy.code).toBe(0);
    expect(legacy.stdout.split('no anchor yet (log predates anchoring)')).toHaveLength(2);

    const secret = loadOrCreateSecret(paths);
    const log = new AuditLog(paths.audit, () => secret);
    for (let i = 0; i < 4; i++) await log.append({ event: 'preview', op: 'hive.quarantine.commit', outcome: 'ok', host: 'browser', ids: [`id-${i}`] });
    const intact = await cli(['audit', '--user-data', userData]);
    expect(intact.code).toBe(0);
    expect(intact.stdout).toContain('Anchor matches the last record.');
    const good = fs.readFileSync(log.file, 'utf8');
    const goodAnchor = fs.readFileSync(log.anchorFile, 'utf8');
    const lines = good.trim().split('\n');
    const cases: [string, () => void, RegExp][] = [
      ['truncation', () => fs.writeFileSync(log.file, `${lines.slice(0, 3).join('\n')}\n`), /ANCHOR: the log ends at record 3; the anchor says 5 \(truncated/],
      ['rewritten tail', () => fs.writeFileSync(log.file, `${[...lines.slice(0, 4), (lines[4] as string).replace('id-3', 'id-9')].join('\n')}\n`), /ANCHOR: record 5 is not the one anchored \(rewritten tail\)/],
      ['emptied log', () => fs.writeFileSync(log.file, ''), /ANCHOR: the log is empty; the anchor says it held 5 records \(emptied log\)/],
      ['missing log', () => fs.rmSync(log.file), /ANCHOR: the log is missing; the anchor says it held 5 records \(deleted log\)/],
      // One hex digit of the signature changed (to another digit: the secret is random, so its mac may begin with 0).
      ['mismatched anchor', () => fs.writeFileSync(log.anchorFile, goodAnchor.replace(/"mac":"(.)/, (_, c: string) => `"mac":"${c === '0' ? '1' : '0'}`)), /ANCHOR: the anchor's signature does not match/],
    ];
    for (const [name, tamper, message] of cases) {
      tamper();
      const result = await cli(['audit', '--user-data', userData]);
      expect(result.code, name).toBe(3);
      expect(result.stdout, name).toMatch(message);
      expect(JSON.parse((await cli(['audit', '--json', '--user-data', userData])).stdout).anchor.state, name).toBe('problem');
      fs.writeFileSync(log.file, good);
      fs.writeFileSync(log.anchorFile, goodAnchor);
    }
  }, 240_000);
});
