import { afterEach, describe, expect, it } from 'vitest';
import { createConsoleCore, type ConsoleCore } from '../core/console-core';
import { fileSha, makeHiveFixture } from '../../testing/human/hive-fixture';
import { dialogConfirmation, type MessageBoxOptions } from './dialog-confirmation';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The Electron host's dispatcher with the real dialog port over a fake `showMessageBox` that presses `button`. */
async function electronConsole(button: 'OK' | 'Cancel') {
  const fixture = makeHiveFixture(4);
  const core: ConsoleCore = await createConsoleCore({ userDataDir: fixture.userData, host: 'electron', version: 'test', human: { revertCheckMs: 60_000 } }, { project: fixture.project, hive: fixture.hive });
  cleanups.push(fixture.cleanup, () => core.dispose()) // run in reverse: the core closes before its folder goes;
  const shown: MessageBoxOptions[] = [];
  const dispatcher = core.dispatcher.forCaller({
    host: 'electron',
    confirmation: dialogConfirmation(async (options) => {
      shown.push(options);
      return { response: options.buttons.indexOf(button) };
    }),
  });
  return { fixture, dispatcher, shown };
}

describe('the Electron confirmation dialog port', () => {
  it('names the command, the ids, the reason and the fingerprint; OK commits', async () => {
    const { fixture, dispatcher, shown } = await electronConsole('OK');
    expect(await dispatcher.call('human.availability', {})).toEqual({ ok: true, value: { enabled: true, mode: 'dialog', reason: null } });
    const preview = await dispatcher.call('hive.quarantine.preview', { ids: ['hive-0001', 'hive-0004'] });
    if (!preview.ok) throw new Error(preview.error.message);
    const { token, token12 } = preview.value as { token: string; token12: string };
    const result = await dispatcher.call('hive.quarantine.commit', { token, reason: 'scratch project leak', confirmation: {} });
    expect(result).toMatchObject({ ok: true, value: { state: 'committed' } });
    expect(shown).toHaveLength(1);
    const [box] = shown as [MessageBoxOptions];
    expect(box).toMatchObject({ type: 'warning', message: 'Confirm hive quarantine of 2 entries?', buttons: ['Cancel', 'OK'], defaultId: 0, cancelId: 0 });
    expect(box.detail).toContain('Command: hive.quarantine.commit');
    expect(box.detail).toContain('  hive-0001\n  hive-0004');
    expect(box.detail).toContain('Reason: scratch project leak');
    expect(box.detail).toMatch(/Fingerprint: 4 entries, \d+ bytes, sha256 [0-9a-f]{12}…/);
    expect(box.detail).toContain(`Token: ${token12}`);
    expect(box.detail).toContain(fixture.store);
  });

  it('Cancel (also the default button) commits nothing', async () => {
    const { fixture, dispatcher, shown } = await electronConsole('Cancel');
    const sha = fileSha(fixture.store);
    const preview = await dispatcher.call('hive.quarantine.preview', { ids: ['hive-0002'] });
    if (!preview.ok) throw new Error(preview.error.message);
    const result = await dispatcher.call('hive.quarantine.commit', { token: (preview.value as { token: string }).token, reason: 'x', confirmation: {} });
    expect(result).toMatchObject({ ok: false, error: { code: 'forbidden', message: 'Not confirmed: The person pressed Cancel in the confirmation dialog.' } });
    expect(shown).toHaveLength(1);
    expect(fileSha(fixture.store)).toBe(sha);
  });
});
