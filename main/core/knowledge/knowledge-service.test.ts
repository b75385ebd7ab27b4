import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreIndexService } from '../store-index/store-index-service';
import { line, lines, swarmEntryV2 } from '../../../testing/stores/sample-records';
import { resolveWorkspacePaths } from '../platform/paths/workspace-paths';
import { KnowledgeService } from './knowledge-service';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const entry = (id: string, lesson: string) => swarmEntryV2({ id, lesson });

async function setup(initial: string) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'knowledge-service-'));
  const project = path.join(root, 'project');
  fs.mkdirSync(path.join(project, '.swarm'), { recursive: true });
  const file = path.join(project, '.swarm', 'knowledge.jsonl');
  fs.writeFileSync(file, initial);
  const index = new StoreIndexService(resolveWorkspacePaths(project, path.join(root, 'hive'), 'flag', false), path.join(root, 'cache'), { watch: false });
  const service = new KnowledgeService(index, project);
  cleanups.push(async () => {
    await service.dispose();
    await index.close();
    fs.rmSync(root, { recursive: true, force: true });
  });
  await index.ready;
  const sync = async () => {
    await index.schedule({ storeKey: 'knowledge', tier: 'swarm', path: file, name: '.swarm/knowledge.jsonl', orphaned: false, symlinkTarget: null });
    await index.idle();
  };
  const rids = () => index.db.prepare("SELECT rid FROM entries WHERE store_key = 'knowledge' ORDER BY line").pluck().all() as number[];
  return { file, index, service, sync, rids };
}

describe('knowledge model kept incrementally by rid', () => {
  it('parses only the appended line on the next rebuild', async () => {
    const t = await setup(lines([entry('a', 'Pin the lockfile before upgrading the toolchain.'), entry('b', 'Run the focused test after editing a fixture.')]));
    const first = await t.service.model();
    expect(t.service.lastRefresh.parsed).toHaveLength(2);

    fs.appendFileSync(t.file, line(entry('c', 'Declare the scope before delegating to the coder.')));
    await t.sync();
    const next = await t.service.model();
    const appended = t.rids()[2]!;
    expect(t.service.lastRefresh).toEqual({ parsed: [appended], dropped: 0 });
    expect(next).not.toBe(first);
    expect(next.lessons().map((e) => e.value.id)).toEqual(['a', 'b', 'c']);
    // The untouched entries are the very objects parsed before.
    expect(next.find('a')).toBe(first.find('a'));
  });

  it('keeps file order when an earlier file grows after a later one was read', async () => {
    const t = await setup(lines([entry('a', 'Pin the lockfile before upgrading the toolchain.')]));
    const rejected = path.join(path.dirname(t.file), 'knowledge-rejected.jsonl');
    fs.writeFileSync(rejected, lines([{ id: 'r1', lesson: 'Just run rm -rf node_modules', rejection_reason: 'dangerous', rejected_at: '2026-06-21T00:00:00.000Z', rejection_layer: 2 }]));
    await t.index.rescan();
    await t.index.idle();
    expect((await t.service.model()).inputs.entries.map((e) => e.value.id)).toEqual(['a', 'r1']);

    // `r1` again, now as a lesson in the earlier file: its copies are listed in file order too.
    fs.appendFileSync(t.file, lines([entry('b', 'Run the focused test after editing a fixture.'), entry('r1', 'Never run rm -rf on a shared volume.')]));
    await t.sync();
    const model = await t.service.model();
    expect(t.service.lastRefresh.parsed).toHaveLength(2);
    const fileOrder = t.index.db.prepare('SELECT id FROM entries ORDER BY file_id, line').pluck().all();
    expect(model.inputs.entries.map((e) => e.value.id)).toEqual(fileOrder);
    expect(fileOrder).toEqual(['a', 'b', 'r1', 'r1']);
    expect(model.byId('r1').map((e) => e.collection)).toEqual(['active', 'rejected']);
    expect(model.find('r1')!.collection).toBe('active');
  });

  it('sees an edit made in place with the same length: the rewritten file comes back under new rids', async () => {
    const t = await setup(lines([entry('a', 'Pin the lockfile before upgrading the toolchain.'), entry('b', 'Run the focused test after editing a fixture.')]));
    await t.service.model();
    const before = t.rids();

    const text = fs.readFileSync(t.file, 'utf8');
    const edited = text.replace('Run the focused test', 'Run the FOCUSED test');
    expect(edited.length).toBe(text.length);
    fs.writeFileSync(t.file, edited);
    fs.utimesSync(t.file, new Date(), new Date(Date.now() + 5000));
    await t.sync();

    const model = await t.service.model();
    const after = t.rids();
    expect(Math.min(...after)).toBeGreaterThan(Math.max(...before));
    expect(t.service.lastRefresh).toEqual({ parsed: after, dropped: 2 });
    expect(model.find('b')!.value.lesson).toBe('Run the FOCUSED test after editing a fixture.');
    expect(model.inputs.entries.map((e) => e.rid)).toEqual(after);
  });

  it('drops the entries of a deleted file', async () => {
    const t = await setup(lines([entry('a', 'Pin the lockfile before upgrading the toolchain.')]));
    expect((await t.service.model()).inputs.entries).toHaveLength(1);
    fs.unlinkSync(t.file);
    await t.sync();
    expect((await t.service.model()).inputs.entries).toHaveLength(0);
    expect(t.service.lastRefresh).toEqual({ parsed: [], dropped: 1 });
  });
});
