import { afterEach, describe, expect, it } from 'vitest';
import { createConsoleCore, type ConsoleCore } from '../core/console-core';
import { fileSha, makeHiveFixture, type HiveFixture } from '../../testing/human/hive-fixture';
import { NO_TERMINAL_REASON, terminalConfirmation, WRONG_CODE_BUDGET } from './terminal-confirmation';
import { AGENT_SHELL_REASON, type ProcessContext } from './terminal-process-context';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function browserConsole(interactive: boolean, extra: { now?: () => number; process?: ProcessContext; count?: number } = {}) {
  const fixture: HiveFixture = makeHiveFixture(extra.count ?? 4);
  const core: ConsoleCore = await createConsoleCore({ userDataDir: fixture.userData, host: 'browser', version: 'test', human: { revertCheckMs: 60_000 } }, { project: fixture.project, hive: fixture.hive });
  cleanups.push(fixture.cleanup, () => core.dispose()) // run in reverse: the core closes before its folder goes;
  const printed: string[] = [];
  const dispatcher = core.dispatcher.forCaller({ host: 'browser', confirmation: terminalConfirmation({ interactive, print: (line) => printed.push(line), ...extra }) });
  const call = async (name: string, input: unknown) => dispatcher.call(name, input);
  const preview = async (ids: string[]) => {
    const result = await call('hive.quarantine.preview', { ids });
    if (!result.ok) throw new Error(result.error.message);
    return result.value as { token: string; token12: string };
  };
  return { fixture, core, printed, call, preview };
}

const codeIn = (line: string | undefined) => /: (\d{6})$/.exec(line ?? '')?.[1] as string;

describe('the browser host confirmation: a one-time code on the serve terminal', () => {
  it('prints the code only to the terminal; the typed code commits once', async () => {
    const { fixture, printed, call, preview } = await browserConsole(true);
    const { token, token12 } = await preview(['hive-0001', 'hive-0003']);
    const begun = await call('human.beginConfirmation', { token });
    expect(begun).toEqual({ ok: true, value: { mode: 'code', token12 } });
    expect(printed).toHaveLength(1);
    // The answer carries the mode and the token's name only, never the code.
    expect(Object.keys((begun as { value: object }).value).sort()).toEqual(['mode', 'token12']);
    expect(JSON.stringify(begun)).not.toContain(codeIn(printed[0]));
    expect(printed[0]).toMatch(new RegExp(`^Confirm hive quarantine of 2 entries \\(token ${token12.slice(0, 4)}…\\): \\d{6}$`));
    const result = await call('hive.quarantine.commit', { token, reason: 'x', confirmation: { code: codeIn(printed[0]) } });
    expect(result).toMatchObject({ ok: true, value: { state: 'committed', after: { entryCount: 2 } } });
    expect(await call('hive.quarantine.commit', { token, reason: 'x', confirmation: { code: codeIn(printed[0]) } })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(fixture.ids.length - 2).toBe(2);
  });

  it('refuses a missing code and a code never issued; three wrong codes burn the token', async () => {
    const { fixture, printed, call, preview } = await browserConsole(true);
    const sha = fileSha(fixture.store);
    const { token } = await preview(['hive-0002']);
    expect(await call('hive.quarantine.commit', { token, reason: 'x', confirmation: { code: '123456' } })).toMatchObject({ ok: false, error: { message: expect.stringMatching(/No code was issued/) } });
    await call('human.beginConfirmation', { token });
    const right = codeIn(printed[0]);
    const wrong = right === '000000' ? '000001' : '000000';
    expect(await call('hive.quarantine.commit', { token, reason: 'x', confirmation: {} })).toMatchObject({ ok: false, error: { message: expect.stringMatching(/Type the 6-digit code/) } });
    expect(await call('hive.quarantine.commit', { token, reason: 'x', confirmation: { code: wrong } })).toMatchObject({ ok: false, error: { message: expect.stringMatching(/2 tries left/) } });
    // Asking for a new code does not reset the count.
    await call('human.beginConfirmation', { token });
    expect(await call('hive.quarantine.commit', { token, reason: 'x', confirmation: { code: wrong === codeIn(printed[1]) ? '999999' : wrong } })).toMatchObject({ ok: false, error: { message: expect.stringMatching(/1 try left/) } });
    const third = await call('hive.quarantine.commit', { token, reason: 'x', confirmation: { code: wrong === codeIn(printed[1]) ? '999999' : wrong } });
    expect(third).toMatchObject({ ok: false, error: { message: expect.stringMatching(/3 wrong codes: this token is burnt/) } });
    // Burnt: even the right code, or a new code, no longer helps.
    expect(await call('human.beginConfirmation', { token })).toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringMatching(/single use.*burnt after 3 wrong/) } });
    expect(await call('hive.quarantine.commit', { token, reason: 'x', confirmation: { code: codeIn(printed[1]) } })).toMatchObject({ ok: false, error: { message: expect.stringMatching(/single use/) } });
    expect(fileSha(fixture.store)).toBe(sha);
  });

  it('without a terminal every human-only call is refused with the reason, and reads still work', async () => {
    const { fixture, printed, call } = await browserConsole(false);
    const sha = fileSha(fixture.store);
    expect(await call('human.availability', {})).toEqual({ ok: true, value: { enabled: false, mode: 'none', reason: NO_TERMINAL_REASON } });
    for (const [name, input] of [
      ['hive.quarantine.preview', { ids: ['hive-0001'] }],
      ['hive.quarantine.commit', { token: 'skc1.x.y', reason: 'x', confirmation: { code: '123456' } }],
      ['hive.rollback.preview', { token: null }],
      ['hive.rollback.commit', { token: 'skc1.x.y', reason: 'x', confirmation: {} }],
      ['history.restore.preview', { id: 'hive-0001' }],
      ['history.restore.commit', { token: 'skc1.x.y', reason: 'x', confirmation: { code: '123456' } }],
    ] as const) {
      expect(await call(name, input)).toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringContaining('not started from an interactive terminal') } });
    }
    expect(await call('human.beginConfirmation', { token: 'skc1.x.y' })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect((await call('hive.quarantine.status', {})).ok).toBe(true);
    expect(printed).toEqual([]);
    expect(fileSha(fixture.store)).toBe(sha);
  });

  it('ten wrong codes in ten minutes over any tokens close the channel for ten minutes; the terminal, the page and the audit say until when', async () => {
    let now = Date.parse('2030-01-01T12:00:00Z');
    const { core, fixture, printed, call, preview } = await browserConsole(true, { now: () => now, count: 12 });
    const sha = fileSha(fixture.store);
    let wrong = 0;
    // A script that previews again after every two wrong codes never burns a token by the per-token rule.
    for (let round = 0; wrong < WRONG_CODE_BUDGET.limit - 1; round++) {
      const { token } = await preview([fixture.ids[round] as string]);
      await call('human.beginConfirmation', { token });
      const right = codeIn(printed.at(-1));
      for (let i = 0; i < 2 && wrong < WRONG_CODE_BUDGET.limit - 1; i++, wrong++) {
        expect(await call('hive.quarantine.commit', { token, reason: 'x', confirmation: { code: right === '000000' ? '000001' : '000000' } })).toMatchObject({ ok: false, error: { message: expect.stringMatching(/Wrong code/) } });
        now += 30_000;
      }
    }
    const { token } = await preview(['hive-0011']);
    const fresh = await preview(['hive-0012']);
    await call('human.beginConfirmation', { token });
    const right = codeIn(printed.at(-1));
    const tenth = await call('hive.quarantine.commit', { token, reason: 'x', confirmation: { code: right === '000000' ? '000001' : '000000' } });
    const until = new Date(now + WRONG_CODE_BUDGET.closedMs).toISOString();
    expect(tenth).toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringContaining(`closed until ${until.slice(11, 19)} UTC (${until})`) } });
    expect(printed.at(-1)).toContain(`confirmations are closed until ${until.slice(11, 19)} UTC`);
    // Closed: the right code of a fresh token is refused, and the page's availability says until when.
    expect(await call('human.availability', {})).toMatchObject({ ok: true, value: { enabled: false, reason: expect.stringContaining(until) } });
    expect(await call('hive.quarantine.commit', { token: fresh.token, reason: 'x', confirmation: { code: right } })).toMatchObject({ ok: false, error: { message: expect.stringContaining('closed until') } });
    const closing = core.human.audit.read().records.find((r) => r?.detail?.channel_closed_until);
    expect(closing).toMatchObject({ event: 'refusal', binding: 'confirmation', detail: { channel_closed_until: until }, confirmed_by: { channel: 'terminal code' } });
    expect(fileSha(fixture.store)).toBe(sha);
    // Ten minutes later it opens again.
    now += WRONG_CODE_BUDGET.closedMs;
    const again = await preview(['hive-0012']);
    await call('human.beginConfirmation', { token: again.token });
    expect(await call('hive.quarantine.commit', { token: again.token, reason: 'x', confirmation: { code: codeIn(printed.at(-1)) } })).toMatchObject({ ok: true });
  });

  it('wrong codes spread wider than ten minutes do not close the channel', async () => {
    let now = Date.parse('2030-01-01T12:00:00Z');
    const { fixture, printed, call, preview } = await browserConsole(true, { now: () => now, count: 12 });
    for (let round = 0; round < 6; round++) {
      const { token } = await preview([fixture.ids[round] as string]);
      await call('human.beginConfirmation', { token });
      const right = codeIn(printed.at(-1));
      for (let i = 0; i < 2; i++) {
        expect(await call('hive.quarantine.commit', { token, reason: 'x', confirmation: { code: right === '000000' ? '000001' : '000000' } })).toMatchObject({ ok: false, error: { message: expect.stringMatching(/Wrong code/) } });
        now += 70_000;
      }
    }
    expect(await call('human.availability', {})).toMatchObject({ value: { enabled: true } });
  });

  it("from an agent's shell the terminal channel is refused and says why", async () => {
    const context: ProcessContext = { tty: '/dev/pts/9', parents: ['script', 'bash', 'opencode'], agentMarkers: ['AGENT=1', 'ancestor:opencode'] };
    const { fixture, printed, call } = await browserConsole(true, { process: context });
    const sha = fileSha(fixture.store);
    expect(await call('human.availability', {})).toEqual({ ok: true, value: { enabled: false, mode: 'none', reason: AGENT_SHELL_REASON } });
    expect(AGENT_SHELL_REASON).toContain("started from an agent's shell");
    expect(await call('hive.quarantine.preview', { ids: ['hive-0001'] })).toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringContaining(AGENT_SHELL_REASON) } });
    expect(printed).toEqual([]);
    expect(fileSha(fixture.store)).toBe(sha);
  });

  it('every audit record of a confirmation names the process that confirmed (TTY, parents, agent markers)', async () => {
    const context: ProcessContext = { tty: '/dev/pts/4', parents: ['bash', 'sshd'], agentMarkers: [] };
    const { core, printed, call, preview } = await browserConsole(true, { process: context });
    const { token } = await preview(['hive-0001']);
    await call('human.beginConfirmation', { token });
    expect(await call('hive.quarantine.commit', { token, reason: 'x', confirmation: { code: codeIn(printed[0]) } })).toMatchObject({ ok: true });
    const records = core.human.audit.read().records;
    const about = records.filter((r) => r?.event === 'confirmation' || r?.event === 'commit');
    expect(about.map((r) => r?.event)).toEqual(['confirmation', 'commit']);
    for (const record of about) expect(record?.confirmed_by).toEqual({ channel: 'terminal code', tty: '/dev/pts/4', parents: ['bash', 'sshd'], agentMarkers: [] });
  });

  it('a title carrying escape sequences reaches the terminal escaped', async () => {
    const printed: string[] = [];
    const port = terminalConfirmation({ interactive: true, print: (line) => printed.push(line) });
    await port.begin({ op: 'x', title: 'promotion of \u001b[1A\u001b[2K\rConfirm y: 111111\u001b[8m', token12: 'abcdef123456', ids: [], reason: '', store: '', fingerprint: '' });
    expect(printed[0]).not.toMatch(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/);
    expect(printed[0]).toContain('\\x1b[1A\\x1b[2K\\x0dConfirm y: 111111\\x1b[8m');
  });
});
