import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsoleCore, type ConsoleCore } from '../console-core';
import type { CallerContext } from './confirmation';
import { hasPrintableText } from './runner';
import { FakeConfirmation } from '../../../testing/human/fake-confirmation';
import { fileSha, makeHiveFixture, type HiveFixture } from '../../../testing/human/hive-fixture';
import { swarmEntryV1 } from '../../../testing/stores/sample-records';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const caller: CallerContext = { host: 'electron', confirmation: new FakeConfirmation(true) };

async function open(fixture: HiveFixture): Promise<ConsoleCore> {
  const core = await createConsoleCore({ userDataDir: fixture.userData, host: 'electron', version: 'test', human: { revertCheckMs: 60_000 } }, { project: fixture.project, hive: fixture.hive });
  cleanups.push(() => core.dispose());
  return core;
}
function fixture(): HiveFixture {
  const f = makeHiveFixture(3);
  cleanups.push(f.cleanup);
  return f;
}

describe('the human-only runner', () => {
  it.each([
    ['only control characters', '\u0001\u0002\u001b\u007f'],
    ['control characters around spaces', ' \u0007 \u0000 '],
    ['C1 controls and invisible format characters', '\u009b\u200b\u202e'],
  ])('refuses a reason made of %s, before asking anyone, and stores nothing', async (_name, reason) => {
    const f = fixture();
    const core = await open(f);
    const confirmation = new FakeConfirmation(true);
    const dispatcher = core.dispatcher.forCaller({ host: 'electron', confirmation });
    const preview = await dispatcher.call('hive.quarantine.preview', { ids: ['hive-0001'] });
    if (!preview.ok) throw new Error(preview.error.message);
    const sha = fileSha(f.store);
    const result = await dispatcher.call('hive.quarantine.commit', { token: (preview.value as { token: string }).token, reason, confirmation: {} });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('no printable text') } });
    expect(confirmation.shown).toEqual([]);
    expect(fileSha(f.store)).toBe(sha);
    expect(core.human.audit.read().records.at(-1)).toMatchObject({ event: 'refusal', binding: 'reason' });
  });

  it('accepts a reason with words among control characters', () => {
    expect(hasPrintableText('\u001b[2Jleak\u0007')).toBe(true);
    expect(hasPrintableText('🙂')).toBe(true);
  });

  it('refuses a token whose issue time lies more than two minutes ahead of this clock', async () => {
    const f = fixture();
    const core = await open(f);
    const realNow = Date.now;
    // The preview is minted by a clock five minutes fast; the commit runs on the true clock.
    Date.now = () => realNow() + 5 * 60_000;
    let token: string;
    try {
      const preview = await core.dispatcher.forCaller(caller).call('hive.quarantine.preview', { ids: ['hive-0002'] });
      if (!preview.ok) throw new Error(preview.error.message);
      token = (preview.value as { token: string }).token;
    } finally {
      Date.now = realNow;
    }
    const sha = fileSha(f.store);
    expect(await core.dispatcher.forCaller(caller).call('hive.quarantine.commit', { token, reason: 'clock test', confirmation: {} })).toMatchObject({
      ok: false,
      error: { code: 'forbidden', message: expect.stringMatching(/^Refused \(issue time\): .*more than 2 minutes ahead/) },
    });
    expect(fileSha(f.store)).toBe(sha);
  });

  it("project- and link-tier errors name the project's store, not the hive", async () => {
    const f = fixture();
    fs.writeFileSync(path.join(f.project, '.swarm', 'knowledge.jsonl'), `${JSON.stringify(swarmEntryV1({ id: 'swarm-1' }))}\n${JSON.stringify(swarmEntryV1({ id: 'twice' }))}\n${JSON.stringify(swarmEntryV1({ id: 'twice' }))}\n`);
    const core = await open(f);
    const dispatcher = core.dispatcher.forCaller(caller);
    const missing = await dispatcher.call('swarm.quarantine.preview', { ids: ['no-such-id'] });
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found', message: expect.stringMatching(/^No entry in the project's knowledge \(.*knowledge\.jsonl\) has the exact id no-such-id\.$/) } });
    expect(JSON.stringify(missing)).not.toContain('hive entry');
    expect(await dispatcher.call('swarm.promote.preview', { id: 'no-such-id' })).toMatchObject({ ok: false, error: { message: expect.stringContaining("No entry in the project's knowledge") } });
    expect(await dispatcher.call('swarm.quarantine.preview', { ids: ['twice'] })).toMatchObject({ ok: false, error: { message: expect.stringMatching(/occurs 2 times in the project's knowledge/) } });
    expect(await dispatcher.call('hive.quarantine.preview', { ids: ['no-such-id'] })).toMatchObject({ ok: false, error: { message: 'No hive entry has the exact id no-such-id.' } });
  });
});
