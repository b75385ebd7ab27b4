import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveWorkspacePaths } from '../platform/paths/workspace-paths';
import { line, lines, swarmEntryV2 } from '../../../testing/stores/sample-records';
import { listDefects } from './store-queries';
import { StoreIndexService } from './store-index-service';
import type { StoreChange } from './ingest';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(initial: string | null) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ingest-'));
  const project = path.join(root, 'project');
  const hive = path.join(root, 'hive');
  fs.mkdirSync(path.join(project, '.swarm'), { recursive: true });
  const file = path.join(project, '.swarm', 'knowledge.jsonl');
  if (initial !== null) fs.writeFileSync(file, initial);
  const service = new StoreIndexService(resolveWorkspacePaths(project, hive, 'flag', false), path.join(root, 'cache'), { watch: false });
  const changes: StoreChange[] = [];
  service.onChange((c) => changes.push(c));
  cleanups.push(async () => {
    await service.close();
    fs.rmSync(root, { recursive: true, force: true });
  });
  await service.ready;
  const knowledgeFile = { storeKey: 'knowledge', tier: 'swarm' as const, path: file, name: '.swarm/knowledge.jsonl', orphaned: false, symlinkTarget: null };
  const sync = async () => {
    changes.length = 0;
    await service.schedule(knowledgeFile);
    await service.idle();
    return [...changes];
  };
  const ids = () => (service.db.prepare("SELECT id FROM entries WHERE store_key = 'knowledge' ORDER BY line").all() as { id: string }[]).map((r) => r.id);
  const fileRow = () => service.db.prepare('SELECT * FROM files WHERE path = ?').get(file) as Record<string, unknown>;
  return { root, file, service, sync, ids, fileRow, changes };
}

const entry = (id: string, extra: Record<string, unknown> = {}) => swarmEntryV2({ id, ...extra });

describe('incremental ingest', () => {
  it('parses only appended bytes', async () => {
    const t = await setup(lines([entry('a'), entry('b')]));
    expect(t.ids()).toEqual(['a', 'b']);
    fs.appendFileSync(t.file, line(entry('c')));
    expect(await t.sync()).toEqual([expect.objectContaining({ storeKey: 'knowledge', file: '.swarm/knowledge.jsonl', kind: 'appended', count: 1 })]);
    expect(t.ids()).toEqual(['a', 'b', 'c']);
    expect(t.fileRow()).toMatchObject({ lines: 3, records: 3, next_line: 4 });
    expect(await t.sync()).toEqual([]);
  });

  it('keeps a truncated last line pending until a later append completes it, then shows it once', async () => {
    const full = JSON.stringify(entry('tail'));
    const t = await setup(line(entry('a')) + full.slice(0, 50));
    expect(t.ids()).toEqual(['a']);
    expect(listDefects(t.service.db, { store: 'knowledge', offset: 0, limit: 10 }).items.map((d) => d.kind)).toEqual(['incomplete_tail']);

    fs.appendFileSync(t.file, full.slice(50, 80)); // still incomplete
    await t.sync();
    expect(t.ids()).toEqual(['a']);
    expect(listDefects(t.service.db, { store: 'knowledge', offset: 0, limit: 10 }).total).toBe(1);

    fs.appendFileSync(t.file, full.slice(80) + '\n');
    expect(await t.sync()).toEqual([expect.objectContaining({ kind: 'appended', count: 1 })]);
    expect(t.ids()).toEqual(['a', 'tail']);
    expect(listDefects(t.service.db, { store: 'knowledge', offset: 0, limit: 10 }).total).toBe(0);
    expect(t.fileRow()).toMatchObject({ records: 2, defects: 0, pending_tail: 0 });
  });

  it('detects duplicate ids across appends', async () => {
    const t = await setup(lines([entry('a')]));
    fs.appendFileSync(t.file, line(entry('a')));
    await t.sync();
    expect(listDefects(t.service.db, { store: 'knowledge', offset: 0, limit: 10 }).items).toEqual([
      expect.objectContaining({ line: 2, kind: 'duplicate_id', reason: 'duplicate id "a" (first on line 1)' }),
    ]);
  });

  it('re-reads a store replaced by rename (the plugin rewrites via temp + rename)', async () => {
    const t = await setup(lines([entry('a'), entry('b')]));
    const temp = `${t.file}.tmp.${Date.now()}.1`;
    fs.writeFileSync(temp, lines([entry('b'), entry('c'), entry('d')]));
    fs.renameSync(temp, t.file);
    expect(await t.sync()).toEqual([expect.objectContaining({ kind: 'rewritten', count: 3 })]);
    expect(t.ids()).toEqual(['b', 'c', 'd']);
  });

  it('re-reads a truncated store and one rewritten in place with the same size', async () => {
    const t = await setup(lines([entry('a'), entry('b'), entry('c')]));
    fs.truncateSync(t.file, 0);
    fs.appendFileSync(t.file, line(entry('z')));
    expect(await t.sync()).toEqual([expect.objectContaining({ kind: 'rewritten', count: 1 })]);
    expect(t.ids()).toEqual(['z']);

    const same = fs.readFileSync(t.file, 'utf8').replace('"z"', '"y"');
    fs.writeFileSync(t.file, same);
    fs.utimesSync(t.file, new Date(), new Date(Date.now() + 5000));
    expect(await t.sync()).toEqual([expect.objectContaining({ kind: 'rewritten' })]);
    expect(t.ids()).toEqual(['y']);
  });

  it('empties a deleted store with a clear status, and reads it again when it returns', async () => {
    const t = await setup(lines([entry('a'), entry('b')]));
    fs.unlinkSync(t.file);
    expect(await t.sync()).toEqual([expect.objectContaining({ kind: 'removed', count: 2 })]);
    expect(t.ids()).toEqual([]);
    expect(t.fileRow()).toMatchObject({ status: 'missing', message: '.swarm/knowledge.jsonl was deleted: its 2 records are no longer shown' });
    fs.writeFileSync(t.file, line(entry('c')));
    expect(await t.sync()).toEqual([expect.objectContaining({ kind: 'appended', count: 1 })]);
    expect(t.ids()).toEqual(['c']);
  });

  it('ends with the new content when a store is replaced by rename while being read', async () => {
    const many = Array.from({ length: 6000 }, (_, i) => entry(`old-${i}`));
    const t = await setup(null);
    fs.writeFileSync(t.file, lines(many));
    const reading = t.service.schedule({ storeKey: 'knowledge', tier: 'swarm', path: t.file, name: '.swarm/knowledge.jsonl', orphaned: false, symlinkTarget: null });
    await new Promise((resolve) => setImmediate(resolve));
    const temp = `${t.file}.tmp.1`;
    fs.writeFileSync(temp, lines([entry('new-1'), entry('new-2')]));
    fs.renameSync(temp, t.file);
    await reading;
    await t.sync(); // what the watcher does after the rename event
    expect(t.ids()).toEqual(['new-1', 'new-2']);
    expect(t.fileRow()).toMatchObject({ records: 2, status: 'ok' });
  });

  it('ends empty with a clear status when a store is deleted while open', async () => {
    const many = Array.from({ length: 6000 }, (_, i) => entry(`old-${i}`));
    const t = await setup(null);
    fs.writeFileSync(t.file, lines(many));
    const reading = t.service.schedule({ storeKey: 'knowledge', tier: 'swarm', path: t.file, name: '.swarm/knowledge.jsonl', orphaned: false, symlinkTarget: null });
    await new Promise((resolve) => setImmediate(resolve));
    fs.unlinkSync(t.file);
    await reading;
    await t.sync();
    expect(t.ids()).toEqual([]);
    expect(t.fileRow().status).toBe('missing');
  });

  it('rebuilds an index of another schema version and keeps nothing stale', async () => {
    const t = await setup(lines([entry('a')]));
    t.service.db.prepare("UPDATE meta SET value = '0' WHERE key = 'schema_version'").run();
    const cacheDir = path.join(t.root, 'cache');
    await t.service.close();
    const again = new StoreIndexService(resolveWorkspacePaths(path.join(t.root, 'project'), path.join(t.root, 'hive'), 'flag', false), cacheDir, { watch: false });
    await again.ready;
    expect(again.index.rebuilt).toBe(true);
    expect(again.index.reason).toContain('schema 0');
    expect((again.db.prepare('SELECT id FROM entries').all() as { id: string }[]).map((r) => r.id)).toEqual(['a']);
    await again.close();
  });

  it('skips unchanged files on restart (incremental across sessions)', async () => {
    const t = await setup(lines([entry('a')]));
    const cacheDir = path.join(t.root, 'cache');
    await t.service.close();
    const again = new StoreIndexService(resolveWorkspacePaths(path.join(t.root, 'project'), path.join(t.root, 'hive'), 'flag', false), cacheDir, { watch: false });
    const changes: StoreChange[] = [];
    again.onChange((c) => changes.push(c));
    await again.ready;
    expect(again.index.rebuilt).toBe(false);
    expect(changes.filter((c) => c.storeKey === 'knowledge')).toEqual([]);
    await again.close();
  });
});
