import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commandWorkspace, HUMAN_COMMANDS, type CommandWorkspace } from '../../../../testing/human/human-commands';
import { stepObservers } from './pause-points';

const open: CommandWorkspace[] = [];
afterEach(async () => {
  stepObservers.clear();
  for (const w of open.splice(0)) await w.dispose();
});

async function workspace(): Promise<CommandWorkspace> {
  const w = await commandWorkspace();
  open.push(w);
  return w;
}

describe('a backup that does not read back as written stops the commit', () => {
  it.each(HUMAN_COMMANDS.map((c) => [c.op, c] as const))('%s: corrupted between its write and its verification → refused, naming the file, nothing changed', async (_op, command) => {
    const w = await workspace();
    const token = await command.prepare(w);
    const corrupted: string[] = [];
    stepObservers.add((step, dir) => {
      if (step !== 'backup-written' || !dir) return;
      const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { files: Record<string, string> };
      const file = Object.keys(manifest.files)[0] as string;
      fs.appendFileSync(path.join(dir, file), 'a flipped bit on the way to the disk');
      corrupted.push(file);
    });
    const before = w.tree();
    const result = await w.core.dispatcher.forCaller(w.caller).call(command.op, { token, reason: 'x', confirmation: {} });
    expect(corrupted).toHaveLength(1);
    expect(result).toMatchObject({ ok: false, error: { code: 'failed' } });
    expect(!result.ok && result.error.message).toMatch(new RegExp(`^Aborted \\(backup_verify_failed\\): The backup in .* did not read back identically \\(${corrupted[0]?.replace('.', '\\.')} differs from its manifest hash\\); nothing was changed\\.$`));
    // Every store as it was, and the unusable backup gone.
    expect(w.tree()).toEqual(before);
    expect(w.core.human.audit.read().records.at(-1)).toMatchObject({ event: 'refusal', outcome: 'aborted', binding: 'backup_verify_failed' });
  }, 60_000);
});

describe('a quarantine backup corrupted on disk cannot be rolled back', () => {
  it.each([
    ['selected.jsonl', (text: string) => text.replace('Lesson number 2', 'Lesson number 9')],
    ['shared-learnings.jsonl', (text: string) => text.replace('Lesson number 3', 'Lesson number 8')],
  ])('%s edited after the preview: refused, naming the file, nothing restored', async (name, edit) => {
    const w = await workspace();
    const quarantine = await w.call('hive.quarantine.preview', { ids: ['hive-0002'] });
    const done = await w.call('hive.quarantine.commit', { token: quarantine.token, reason: 'x', confirmation: {} });
    const rollback = await w.call('hive.rollback.preview', { token: null });
    const file = path.join(w.hive, 'quarantine-backups', done.backup, name);
    const text = fs.readFileSync(file, 'utf8');
    expect(edit(text)).not.toBe(text);
    fs.chmodSync(file, 0o600);
    fs.writeFileSync(file, edit(text));
    const before = w.tree();

    const refused = await w.core.dispatcher.forCaller(w.caller).call('hive.rollback.commit', { token: rollback.token, reason: 'undo', confirmation: {} });
    expect(refused).toMatchObject({ ok: false, error: { code: 'failed' } });
    expect(!refused.ok && refused.error.message).toContain(`The backup ${done.backup} no longer matches its manifest (${name} differs from its manifest hash); nothing can be restored from it.`);
    expect(w.tree()).toEqual(before);
    // A fresh preview says so too, before any token is minted.
    expect(await w.core.dispatcher.forCaller(w.caller).call('hive.rollback.preview', { token: null })).toMatchObject({ ok: false, error: { message: expect.stringContaining(`${name} differs from its manifest hash`) } });
    expect(await w.call('hive.quarantine.status', {})).toMatchObject({ backups: [{ name: done.backup, verified: false, problems: [`${name} differs from its manifest hash`] }] });
  }, 60_000);
});
