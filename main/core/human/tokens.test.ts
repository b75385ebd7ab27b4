import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsoleCore, type ConsoleCore } from '../console-core';
import type { CallerContext } from './confirmation';
import { mintToken, TokenRefusal, verifyToken, TOKEN_TTL_MS } from './tokens';
import { FakeConfirmation } from '../../../testing/human/fake-confirmation';
import { fileSha, hiveLine, makeHiveFixture, type HiveFixture } from '../../../testing/human/hive-fixture';

const secret = Buffer.alloc(32, 7);
const subject = {
  op: 'hive.quarantine.commit',
  target: '/data/shared-learnings.jsonl',
  ids: ['b', 'a'],
  lines: { a: '1'.repeat(64), b: '2'.repeat(64) },
  store: { entry_count: 2, line_count: 2, byte_length: 10, file_sha256: '3'.repeat(64) },
  console_version: '1.0.0',
  bind: {},
};

function refusalOf(fn: () => unknown): TokenRefusal {
  try {
    fn();
  } catch (error) {
    if (error instanceof TokenRefusal) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('confirmation tokens', () => {
  it('binds sorted ids and verifies with the same secret, command and version', () => {
    const minted = mintToken(secret, subject, 1_000);
    expect(minted.payload).toMatchObject({ ids: ['a', 'b'], exp: 1_000 + TOKEN_TTL_MS });
    expect(minted.token12).toMatch(/^[0-9a-f]{12}$/);
    expect(verifyToken(secret, minted.token, { op: subject.op, consoleVersion: '1.0.0', now: 2_000 }).payload.nonce).toBe(minted.payload.nonce);
  });

  it('refuses a forged signature, an edited payload, and another secret', () => {
    const { token } = mintToken(secret, subject);
    const [prefix, body, mac] = token.split('.') as [string, string, string];
    const flipped = `${prefix}.${body}.${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`;
    expect(refusalOf(() => verifyToken(secret, flipped, { op: subject.op, consoleVersion: '1.0.0' })).binding).toBe('signature');
    const widened = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), ids: ['a', 'b', 'c'] })).toString('base64url');
    expect(refusalOf(() => verifyToken(secret, `${prefix}.${widened}.${mac}`, { op: subject.op, consoleVersion: '1.0.0' })).binding).toBe('signature');
    expect(refusalOf(() => verifyToken(Buffer.alloc(32, 8), token, { op: subject.op, consoleVersion: '1.0.0' })).binding).toBe('signature');
    expect(refusalOf(() => verifyToken(secret, 'not-a-token', { op: subject.op, consoleVersion: '1.0.0' })).binding).toBe('format');
  });

  it('refuses another command, another console version, and an expired token', () => {
    const minted = mintToken(secret, subject, 1_000);
    expect(refusalOf(() => verifyToken(secret, minted.token, { op: 'hive.rollback.commit', consoleVersion: '1.0.0', now: 2_000 }))).toMatchObject({
      binding: 'command',
      message: 'The token was issued for hive.quarantine.commit, not hive.rollback.commit.',
    });
    expect(refusalOf(() => verifyToken(secret, minted.token, { op: subject.op, consoleVersion: '1.0.1', now: 2_000 })).binding).toBe('console version');
    expect(refusalOf(() => verifyToken(secret, minted.token, { op: subject.op, consoleVersion: '1.0.0', now: 1_000 + TOKEN_TTL_MS })).binding).toBe('expiry');
  });
});

describe('tokens against the live hive at commit', () => {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const caller: CallerContext = { host: 'electron', confirmation: new FakeConfirmation(true) };

  async function open(fixture: HiveFixture, userData = fixture.userData): Promise<ConsoleCore> {
    const core = await createConsoleCore({ userDataDir: userData, host: 'electron', version: 'test', human: { lockWaitMs: 2_000, revertCheckMs: 60_000 } }, { project: fixture.project, hive: fixture.hive });
    cleanups.push(() => core.dispose());
    return core;
  }
  function fixture(): HiveFixture {
    const f = makeHiveFixture(5);
    cleanups.push(f.cleanup);
    return f;
  }
  async function preview(core: ConsoleCore, ids: string[]) {
    const result = await core.dispatcher.forCaller(caller).call('hive.quarantine.preview', { ids });
    if (!result.ok) throw new Error(result.error.message);
    return result.value as { token: string; token12: string };
  }
  const commit = (core: ConsoleCore, token: string) => core.dispatcher.forCaller(caller).call('hive.quarantine.commit', { token, reason: 'test', confirmation: {} });
  async function refused(core: ConsoleCore, token: string): Promise<string> {
    const result = await commit(core, token);
    if (result.ok) throw new Error('the commit was not refused');
    return result.error.message;
  }

  it('a replayed token is refused, also after a restart (the used nonce is persisted)', async () => {
    const f = fixture();
    const core = await open(f);
    const { token } = await preview(core, ['hive-0001']);
    expect((await commit(core, token)).ok).toBe(true);
    expect(await refused(core, token)).toMatch(/^Refused \(single use\): This token was already used/);
    await core.dispose();
    const restarted = await open(f);
    expect(await refused(restarted, token)).toMatch(/^Refused \(single use\)/);
  });

  it('a token minted for other ids cannot be rebound, and a token of another command is refused', async () => {
    const f = fixture();
    const core = await open(f);
    const { token } = await preview(core, ['hive-0001']);
    const [prefix, body, mac] = token.split('.') as [string, string, string];
    const rebound = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), ids: ['hive-0002'] })).toString('base64url');
    expect(await refused(core, `${prefix}.${rebound}.${mac}`)).toMatch(/^Refused \(signature\)/);
    const rollbackCall = await core.dispatcher.forCaller(caller).call('hive.rollback.commit', { token, reason: 'x', confirmation: {} });
    expect(rollbackCall).toMatchObject({ ok: false, error: { code: 'forbidden', message: 'Refused (command): The token was issued for hive.quarantine.commit, not hive.rollback.commit.' } });
  });

  it('a token from another install (another secret) is refused', async () => {
    const f = fixture();
    const core = await open(f);
    const other = await open(f, path.join(f.root, 'other-user-data'));
    const { token } = await preview(other, ['hive-0001']);
    expect(await refused(core, token)).toMatch(/^Refused \(signature\)/);
    expect(fs.statSync(path.join(f.userData, 'human-only', 'confirmation.key')).mode & 0o777).toBe(0o600);
  });

  it.each([
    ['an append', (f: HiveFixture) => fs.appendFileSync(f.store, `${hiveLine(9)}\n`), /store fingerprint.*now holds 6 entries, not the 5/],
    ['a rewrite of an unselected entry', (f: HiveFixture) => fs.writeFileSync(f.store, fs.readFileSync(f.store, 'utf8').replace('Lesson number 4', 'Lesson number four')), /store fingerprint.*rewritten after the preview/],
    ['a rewrite of the selected entry', (f: HiveFixture) => fs.writeFileSync(f.store, fs.readFileSync(f.store, 'utf8').replace('Lesson number 1', 'Lesson number one')), /\(entry\): Entry hive-0001 was rewritten/],
    [
      'a change of id order',
      (f: HiveFixture) => {
        const lines = fs.readFileSync(f.store, 'utf8').split('\n');
        [lines[4], lines[5]] = [lines[5] as string, lines[4] as string];
        fs.writeFileSync(f.store, lines.join('\n'));
      },
      /store fingerprint.*same number of entries, different bytes or order/,
    ],
    ['the selected entry removed', (f: HiveFixture) => fs.writeFileSync(f.store, fs.readFileSync(f.store, 'utf8').split('\n').slice(1).join('\n')), /\(entry\): Entry hive-0001 is no longer in the store/],
  ])('a store changed after the preview by %s is refused with its reason and left alone', async (_name, change, reason) => {
    const f = fixture();
    const core = await open(f);
    const { token } = await preview(core, ['hive-0001']);
    change(f);
    const sha = fileSha(f.store);
    expect(await refused(core, token)).toMatch(reason);
    expect(fileSha(f.store)).toBe(sha);
    expect(fs.existsSync(path.join(f.hive, 'quarantine-backups')) ? fs.readdirSync(path.join(f.hive, 'quarantine-backups')) : []).toEqual([]);
  });
});
