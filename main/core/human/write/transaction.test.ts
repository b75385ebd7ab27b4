import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runTransaction, withAppended, type TransactionSpec } from './transaction';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

function setup() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'transaction-'));
  roots.push(root);
  const store = path.join(root, 'store');
  const outside = path.join(root, 'outside');
  fs.mkdirSync(store);
  fs.mkdirSync(outside);
  const file = path.join(store, 'knowledge.jsonl');
  fs.writeFileSync(file, '{"id":"a"}\n');
  const spec = (files: string[]): TransactionSpec => ({
    locks: [store],
    files,
    workspace: [root],
    backup: { root: path.join(root, 'backups'), name: 'b1', manifest: {}, signingKey: Buffer.alloc(32, 7) },
    check: () => undefined,
    plan: (s) => new Map(files.map((f) => [f, withAppended(s.get(f)?.bytes ?? Buffer.alloc(0), ['{"id":"new"}'])])),
    lockWaitMs: 1_000,
  });
  return { root, store, outside, file, spec };
}

describe('the write protocol only writes inside the folders whose locks it holds', () => {
  it('commits a file inside the locked folder', async () => {
    const t = setup();
    expect((await runTransaction(t.spec([t.file]))).state).toBe('committed');
    expect(fs.readFileSync(t.file, 'utf8')).toBe('{"id":"a"}\n{"id":"new"}\n');
  });

  it('refuses a store file that is a symlink, a file outside every locked folder, and one behind a symlinked folder; nothing is written or backed up', async () => {
    const t = setup();
    const target = path.join(t.outside, 'elsewhere.jsonl');
    fs.writeFileSync(target, '{"id":"x"}\n');
    const link = path.join(t.store, 'shared-learnings.jsonl');
    fs.symlinkSync(target, link);
    fs.symlinkSync(t.outside, path.join(t.store, 'links'));
    await expect(runTransaction(t.spec([link]))).rejects.toMatchObject({ code: 'outside_store', message: expect.stringMatching(/is a symlink/) });
    await expect(runTransaction(t.spec([target]))).rejects.toMatchObject({ code: 'outside_store', message: expect.stringMatching(/outside every folder/) });
    await expect(runTransaction(t.spec([path.join(t.store, 'links', 'elsewhere.jsonl')]))).rejects.toMatchObject({ code: 'outside_store' });
    expect(fs.readFileSync(target, 'utf8')).toBe('{"id":"x"}\n');
    expect(fs.existsSync(path.join(t.root, 'backups'))).toBe(false);
  });
});
