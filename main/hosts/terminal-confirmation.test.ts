import { afterEach, describe, expect, it } from 'vitest';
import { createConsoleCore, type ConsoleCore } from '../core/console-core';
import { fileSha, makeHiveFixture, type HiveFixture } from '../../testing/human/hive-fixture';
import { NO_TERMINAL_REASON, terminalConfirmation } from './terminal-confirmation';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function browserConsole(interactive: boolean) {
  const fixture: HiveFixture = makeHiveFixture(4);
  const core: ConsoleCore = await createConsoleCore({ userDataDir: fixture.userData, host: 'browser', version: 'test', human: { revertCheckMs: 60_000 } }, { project: fixture.project, hive: fixture.hive });
  cleanups.push(() => core.dispose(), fixture.cleanup);
  const printed: string[] = [];
  const dispatcher = core.dispatcher.forCaller({ host: 'browser', confirmation: terminalConfirmation({ interactive, print: (line) => printed.push(line) }) });
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
    ] as const) {
      expect(await call(name, input)).toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringContaining('not started from an interactive terminal') } });
    }
    expect(await call('human.beginConfirmation', { token: 'skc1.x.y' })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect((await call('hive.quarantine.status', {})).ok).toBe(true);
    expect(printed).toEqual([]);
    expect(fileSha(fixture.store)).toBe(sha);
  });
});
