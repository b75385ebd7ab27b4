import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreIndexService } from '../store-index/store-index-service';
import { StaleLineError, lineReaderOf } from '../store-index/stored-lines';
import { lines, swarmEntryV2 } from '../../../testing/stores/sample-records';
import { resolveWorkspacePaths } from '../platform/paths/workspace-paths';
import { entryDetail } from './entry-detail';
import { KnowledgeService } from './knowledge-service';

/**
 * Entries read from the index keep no copy of their line: the detail pane's text and value are
 * read back from the store file. A file changed behind the index is never served from the old
 * rows: the read fails as stale, and through the index's `fresh` the file is re-read and the
 * detail comes from the model of the new lines.
 */
let root: string;
let knowledge: string;
let index: StoreIndexService;
let service: KnowledgeService;
const ID = 'cafe0000-0000-4000-8000-000000000001';
const lesson = (text: string) => swarmEntryV2({ id: ID, lesson: `${text}: run the contract tests before merging the change.` });

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'entry-line-'));
  const project = path.join(root, 'project');
  fs.mkdirSync(path.join(project, '.swarm'), { recursive: true });
  fs.mkdirSync(path.join(root, 'hive'), { recursive: true });
  knowledge = path.join(project, '.swarm', 'knowledge.jsonl');
  fs.writeFileSync(knowledge, lines([swarmEntryV2({ id: 'cafe0000-0000-4000-8000-000000000002' }), lesson('before')]));
  index = new StoreIndexService(resolveWorkspacePaths(project, path.join(root, 'hive'), 'flag', false), path.join(root, 'cache'), { watch: false });
  await index.ready;
  service = new KnowledgeService(index, project);
});

afterAll(async () => {
  await service.dispose();
  await index.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('an entry line read back for the detail', () => {
  it('is the line exactly as written, though the model keeps no copy of it', async () => {
    const model = await service.model();
    const entry = model.find(ID)!;
    expect(entry.text).toBeUndefined();
    const written = fs.readFileSync(knowledge, 'utf8').split('\n')[1]!;
    expect(entryDetail(model, entry).text).toBe(written);
  });

  it('after the file changed behind the index: stale, then read again and answered from the new line', async () => {
    const model = await service.model();
    // Same length, other text: the index has not seen it (no watcher, no rescan).
    fs.writeFileSync(knowledge, fs.readFileSync(knowledge, 'utf8').replace('before:', 'after!:'));
    // The reader's block of the old text is gone (as after reads of other files), so the file itself is read.
    lineReaderOf(index.db).forget(knowledge);
    expect(() => entryDetail(model, model.find(ID)!)).toThrow(StaleLineError);
    const detail = await index.fresh(async () => {
      const current = await service.model();
      return entryDetail(current, current.find(ID)!);
    });
    expect(detail.text).toBe(fs.readFileSync(knowledge, 'utf8').split('\n')[1]);
    expect(detail.value.lesson).toMatch(/^after!:/);
  });
});
