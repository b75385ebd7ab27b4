import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeHiveFixture, type HiveFixture } from '../../testing/human/hive-fixture';
import { serveInPty, type ServeInPty } from '../../testing/human/serve-in-pty';
import { swarmEntryV1 } from '../../testing/stores/sample-records';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** An entry id that, printed raw, moves up a line, erases it, prints a fake prompt and hides what follows. */
const HOSTILE_ID = 'swarm-x\u001b[1A\u001b[2K\rConfirm hive quarantine of 1 entry (token 0000…): 424242\u001b[8m\u009b2J';

async function start(fixture: HiveFixture, extra: { env?: Record<string, string>; launcher?: string; teeTo?: string } = {}): Promise<ServeInPty> {
  const serve = await serveInPty({ project: fixture.project, hive: fixture.hive, userData: fixture.userData, ...extra });
  cleanups.push(() => serve.stop());
  return serve;
}
function fixture(): HiveFixture {
  const f = makeHiveFixture(2, 'serve-pty-');
  fs.writeFileSync(path.join(f.project, '.swarm', 'knowledge.jsonl'), `${JSON.stringify(swarmEntryV1({ id: HOSTILE_ID, lesson: 'A lesson whose id carries terminal escape sequences.' }))}\n`);
  cleanups.push(f.cleanup);
  return f;
}

describe('serve on a terminal', () => {
  it('prints a promote confirmation whose entry id holds escape sequences without one raw control byte', async () => {
    const f = fixture();
    const serve = await start(f);
    const preview = await serve.call('swarm.promote.preview', { id: HOSTILE_ID });
    expect(preview.ok, JSON.stringify(preview)).toBe(true);
    expect(await serve.call('human.beginConfirmation', { token: preview.value.token })).toMatchObject({ ok: true, value: { mode: 'code' } });
    const [line] = await serve.waitFor(/Confirm promotion of [^\n]*: \d{6}\r?\n/);
    expect(line).toContain('swarm-x\\x1b[1A\\x1b[2K\\x0dConfirm hive quarantine');
    // Everything serve wrote to its pseudo-terminal: no ESC or BEL byte, no C1 CSI, no CR other than the pty's own CRLF.
    expect(serve.bytes().includes(0x1b)).toBe(false);
    expect(serve.bytes().includes(0x07)).toBe(false);
    expect(serve.text()).not.toMatch(/[\u0080-\u009f]/);
    expect(serve.text().replace(/\r\n/g, '\n')).not.toContain('\r');
  }, 180_000);

  it.each([
    ['AGENT=1, OPENCODE=1, OPENCODE_PID (every OpenCode tool shell)', { AGENT: '1', OPENCODE: '1', OPENCODE_PID: '4242' }, /AGENT=1, OPENCODE=1, OPENCODE_PID=…\)/],
    ['OPENCODE_TERMINAL=1 alone (an OpenCode PTY)', { OPENCODE_TERMINAL: '1' }, /OPENCODE_TERMINAL=1/],
  ])("refuses the terminal channel when started with %s, and says why on the terminal and to the page", async (_name, env, found) => {
    const f = fixture();
    const serve = await start(f, { env });
    const [line] = await serve.waitFor(/Human-only commands are off: [^\n]*\n/);
    expect(line).toContain("started from an agent's shell");
    expect(line).toMatch(found);
    const availability = await serve.call('human.availability', {});
    expect(availability).toMatchObject({ ok: true, value: { enabled: false, reason: expect.stringContaining("started from an agent's shell") } });
    expect(await serve.call('hive.quarantine.preview', { ids: ['hive-0001'] })).toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringContaining("started from an agent's shell") } });
  }, 180_000);

  it('refuses the terminal channel when a process named opencode is among its ancestors (environment scrubbed)', async () => {
    const f = fixture();
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'fake-opencode-'));
    cleanups.push(() => fs.rmSync(bin, { recursive: true, force: true }));
    // A copy of node under the name `opencode`: the kernel names the process after the file it runs.
    const launcher = path.join(bin, 'opencode');
    fs.copyFileSync(process.execPath, launcher);
    fs.chmodSync(launcher, 0o755);
    const serve = await start(f, { launcher });
    const [line] = await serve.waitFor(/Human-only commands are off: [^\n]*\n/);
    expect(line).toContain('ancestor:opencode');
    expect(await serve.call('human.availability', {})).toMatchObject({ value: { enabled: false, reason: expect.stringContaining("started from an agent's shell") } });
  }, 180_000);

  it('a person\'s terminal (no marker) gets the code; the audit names the TTY and parent chain that confirmed', async () => {
    const f = fixture();
    const serve = await start(f);
    expect(await serve.call('human.availability', {})).toMatchObject({ value: { enabled: true, mode: 'code' } });
    const preview = await serve.call('hive.quarantine.preview', { ids: ['hive-0001'] });
    await serve.call('human.beginConfirmation', { token: preview.value.token });
    const code = (await serve.waitFor(/Confirm hive quarantine of 1 entry \(token \w{4}…\): (\d{6})/))[1];
    expect(await serve.call('hive.quarantine.commit', { token: preview.value.token, reason: 'pty test', confirmation: { code } })).toMatchObject({ ok: true, value: { state: 'committed' } });
    const audit = fs.readFileSync(path.join(f.userData, 'human-only', 'audit.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const commit = audit.find((r) => r.event === 'commit');
    expect(commit.confirmed_by).toMatchObject({ channel: 'terminal code', tty: expect.stringMatching(/^\/dev\/pts\//), agentMarkers: [] });
    expect(commit.confirmed_by.parents[0]).toBe('script');
  }, 180_000);

  it('with stdout piped (`serve 2>&1 | tee log`) prints the code on the controlling terminal, never into the pipe, and says so at start-up', async () => {
    const f = fixture();
    const log = path.join(f.root, 'piped.log');
    const serve = await start(f, { teeTo: log });
    await serve.waitFor(/Human-only commands: confirmed by a one-time code printed on this terminal \(\/dev\/tty; never into the piped output\)/);
    expect(await serve.call('human.availability', {})).toMatchObject({ value: { enabled: true, mode: 'code' } });
    const preview = await serve.call('hive.quarantine.preview', { ids: ['hive-0001'] });
    await serve.call('human.beginConfirmation', { token: preview.value.token });
    const code = (await serve.waitFor(/Confirm hive quarantine of 1 entry \(token \w{4}…\): (\d{6})/))[1] as string;
    // The pipe carried everything else serve printed (the launch URL, the start-up lines) but not the code.
    const piped = fs.readFileSync(log, 'utf8');
    expect(piped).toContain('Open: http://127.0.0.1:');
    expect(piped).toContain('Human-only commands: confirmed by a one-time code');
    expect(piped).not.toContain('Confirm hive quarantine');
    expect(piped).not.toContain(code);
    expect(await serve.call('hive.quarantine.commit', { token: preview.value.token, reason: 'piped test', confirmation: { code } })).toMatchObject({ ok: true, value: { state: 'committed' } });
  }, 180_000);

  it('with stdout piped, an agent shell is still refused, on the terminal and to the page', async () => {
    const f = fixture();
    const serve = await start(f, { teeTo: path.join(f.root, 'agent.log'), env: { OPENCODE_TERMINAL: '1' } });
    const [line] = await serve.waitFor(/Human-only commands are off: [^\n]*\n/);
    expect(line).toContain("started from an agent's shell");
    expect(line).toContain('OPENCODE_TERMINAL=1');
    expect(await serve.call('human.availability', {})).toMatchObject({ value: { enabled: false, reason: expect.stringContaining("started from an agent's shell") } });
  }, 180_000);
});
