import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { commandWorkspace, HUMAN_COMMANDS, type CommandWorkspace } from '../../../testing/human/human-commands';

const open: CommandWorkspace[] = [];
afterEach(async () => {
  for (const w of open.splice(0)) await w.dispose();
});

const usedRecords = (file: string, nonce: string) =>
  (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '')
    .split('\n')
    .filter(Boolean)
    .filter((line) => JSON.parse(line).nonce === nonce);

describe('spending a token: two commits with one token at the same moment', () => {
  it.each(HUMAN_COMMANDS.map((c) => [c.op, c] as const))('%s: exactly one commits, the other is refused as spent, the store changes once', async (_op, command) => {
    const w = await commandWorkspace();
    open.push(w);
    const token = await command.prepare(w);
    const audited = w.core.human.audit.read().records.length;
    // The person answers only once both commits are waiting for them: both have passed the
    // runner's early `spent()` check, so only the check under the nonce lock can tell them apart.
    let waiting = 0;
    let release: () => void = () => undefined;
    const bothAsked = new Promise<void>((resolve) => (release = resolve));
    w.person.answer = () => ({ confirmed: true });
    const confirm = w.person.confirm.bind(w.person);
    w.person.confirm = async (prompt, given) => {
      if (++waiting === 2) release();
      await bothAsked;
      return confirm(prompt, given);
    };
    const before = w.tree();
    const commit = () => w.core.dispatcher.forCaller(w.caller).call(command.op, { token, reason: 'race', confirmation: {} });
    const results = await Promise.all([commit(), commit()]);

    expect(results.filter((r) => r.ok)).toHaveLength(1);
    const refused = results.find((r) => !r.ok);
    expect(refused).toMatchObject({ ok: false, error: { code: 'forbidden', message: 'Refused (single use): This token was used by another commit a moment ago.' } });
    // One commit's worth of change: one backup folder, one commit in the audit log.
    const created = Object.keys(w.tree()).filter((f) => !(f in before) && f.endsWith('manifest.json'));
    expect(created).toHaveLength(1);
    const records = w.core.human.audit.read().records.slice(audited);
    expect(records.filter((r) => r?.event === 'commit' || r?.event === 'rollback').map((r) => r?.outcome)).toEqual(['ok']);
    expect(records.filter((r) => r?.event === 'refusal').map((r) => r?.binding)).toEqual(['single use']);
    const payload = JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString('utf8')) as { nonce: string };
    expect(usedRecords(w.core.human.paths.usedNonces, payload.nonce)).toHaveLength(1);
  }, 60_000);
});
