import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commandWorkspace, type CommandWorkspace } from '../../../../testing/human/human-commands';

/**
 * Issue 18.6: a rewrite by temp + rename must keep the file's mode (and owner, where the process
 * may change it) — on a commit and on a rollback (a restore goes through the same replaceFile).
 */
const open: CommandWorkspace[] = [];
afterEach(async () => {
  for (const w of open.splice(0)) await w.dispose();
});

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;
const isRoot = process.getuid?.() === 0;

async function workspace(): Promise<CommandWorkspace> {
  const w = await commandWorkspace();
  open.push(w);
  return w;
}

describe('a rewritten store keeps its mode and owner', () => {
  it.each([['0600', 0o600], ['0444', 0o444], ['0640', 0o640]] as const)('hive quarantine and rollback of a %s store', async (_label, mode) => {
    const w = await workspace();
    const store = path.join(w.hive, 'shared-learnings.jsonl');
    fs.chmodSync(store, mode);
    // Root can show the owner is kept too (another user's file stays theirs).
    if (isRoot) fs.chownSync(store, 4321, 4321);
    const quarantine = await w.call('hive.quarantine.preview', { ids: ['hive-0001'] });
    await w.call('hive.quarantine.commit', { token: quarantine.token, reason: 'x', confirmation: {} });
    expect(modeOf(store)).toBe(mode);
    if (isRoot) expect(fs.statSync(store)).toMatchObject({ uid: 4321, gid: 4321 });
    const sidecar = path.join(w.hive, 'shared-learnings-quarantined.jsonl');
    fs.chmodSync(sidecar, 0o600);
    const rollback = await w.call('hive.rollback.preview', { token: null });
    await w.call('hive.rollback.commit', { token: rollback.token, reason: 'undo', confirmation: {} });
    expect(modeOf(store)).toBe(mode);
    expect(modeOf(sidecar)).toBe(0o600);
    if (isRoot) expect(fs.statSync(store)).toMatchObject({ uid: 4321, gid: 4321 });
  });

  it.each([['0600', 0o600], ['0444', 0o444]] as const)('project-tier quarantine of %s files (knowledge, quarantine sidecar, rejected)', async (_label, mode) => {
    const w = await workspace();
    const files = ['knowledge.jsonl', 'knowledge-quarantined.jsonl', 'knowledge-rejected.jsonl'].map((name) => path.join(w.dir, name));
    for (const file of files) {
      if (!fs.existsSync(file)) fs.writeFileSync(file, '');
      fs.chmodSync(file, mode);
    }
    const preview = await w.call('swarm.quarantine.preview', { ids: ['swarm-1'] });
    await w.call('swarm.quarantine.commit', { token: preview.token, reason: 'x', confirmation: {} });
    expect(fs.readFileSync(files[0] as string, 'utf8')).not.toContain('"swarm-1"');
    expect(files.map(modeOf)).toEqual([mode, mode, mode]);
  });
});
