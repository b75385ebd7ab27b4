import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { afterEach, describe, expect, it } from 'vitest';
import { commandWorkspace, type CommandWorkspace } from '../../../../testing/human/human-commands';

/**
 * The re-check after waiting for a project-tier lock: the test holds the plugin's lock, the
 * console's commit waits for it (its backup is written), another process appends to the store,
 * the lock is released. The commit must see the store differs from what it read and backed up.
 */
const open: CommandWorkspace[] = [];
afterEach(async () => {
  for (const w of open.splice(0)) await w.dispose();
});

const backupsIn = (w: CommandWorkspace) => {
  const dir = path.join(w.userData, 'human-only', 'backups');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
};

const waitFor = async (condition: () => boolean) => {
  for (let i = 0; i < 400 && !condition(); i++) await new Promise((r) => setTimeout(r, 25));
  expect(condition()).toBe(true);
};

/** What a plugin agent does: append one entry line from its own process. */
function appendFromChild(file: string, line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', `require('node:fs').appendFileSync(${JSON.stringify(file)}, ${JSON.stringify(`${line}\n`)})`], { stdio: 'inherit' });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`append child exited ${code}`))));
  });
}

const appended = JSON.stringify({ id: 'appended-while-waiting', tier: 'swarm', lesson: 'an agent learned this while the console waited', status: 'candidate' });

describe('a project-tier store changed while the commit waited for its lock', () => {
  it.each([
    ['swarm.quarantine', '.swarm (project)', false, { ids: ['swarm-1'] }, /^Refused \(store fingerprint\): /],
    ['swarm.quarantine', 'links/shared-ws (link store)', true, { ids: ['swarm-1'] }, /^Refused \(store fingerprint\): /],
    ['swarm.restore', '.swarm (project)', false, { ids: ['swarm-4'] }, /^Refused \(store fingerprint\): /],
    // Promote binds only the source line of knowledge.jsonl, so this is the store_changed abort itself.
    ['swarm.promote', '.swarm (project)', false, { id: 'swarm-2' }, /^Aborted \(store_changed\): knowledge\.jsonl changed while the console waited for the lock; nothing was changed\.$/],
    ['swarm.promote', 'links/shared-ws (link store)', true, { id: 'swarm-2' }, /^Aborted \(store_changed\): knowledge\.jsonl changed while the console waited for the lock; nothing was changed\.$/],
  ] as const)('%s under %s: the append survives, the commit aborts with nothing changed', async (command, _where, linked, input, refusal) => {
    const w = await commandWorkspace({ linked, lockWaitMs: 20_000 });
    open.push(w);
    const preview = await w.call(`${command}.preview`, input);
    const knowledge = path.join(w.dir, 'knowledge.jsonl');
    const release = await lockfile.lock(w.dir, { stale: 5_000, update: 1_000, realpath: true });
    let released = false;
    try {
      const commit = w.core.dispatcher.forCaller(w.caller).call(`${command}.commit`, { token: preview.token, reason: 'x', confirmation: {} });
      // The backup is written before the lock is taken: once it exists the commit is waiting.
      await waitFor(() => backupsIn(w).length === 1);
      await appendFromChild(knowledge, appended);
      const expected = w.tree();
      await release();
      released = true;
      const result = await commit;
      expect(result).toMatchObject({ ok: false });
      expect(!result.ok && result.error.message).toMatch(refusal);
      expect(fs.readFileSync(knowledge, 'utf8').endsWith(`${appended}\n`)).toBe(true);
      // Every file as the other writer left it; the commit's backup removed with the abort.
      expect(w.tree()).toEqual(Object.fromEntries(Object.entries(expected).filter(([file]) => !file.includes(`${path.sep}backups${path.sep}`))));
      expect(backupsIn(w)).toEqual([]);
    } finally {
      if (!released) await release();
    }
  }, 60_000);
});
