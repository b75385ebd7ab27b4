import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreIndexService } from '../store-index/store-index-service';
import { lines, swarmEntryV2 } from '../../../testing/stores/sample-records';
import { resolveWorkspacePaths } from '../platform/paths/workspace-paths';
import { hotValue } from './cold-fields';
import { entryDetail } from './entry-detail';
import { KnowledgeService } from './knowledge-service';

const confirmation = (phase: number, at: string) => ({ phase_number: phase, confirmed_at: at, project_name: 'billing-api' });
const uuid = (k: number) => `c01d0000-0000-4000-8000-${String(k).padStart(12, '0')}`;
// A copy as parsing gives it (structuredClone keeps a -0 as JSON.parse("-0") does).
const kept = (value: Record<string, unknown>) => hotValue(structuredClone(value));

describe('cold fields left out of kept lessons', () => {
  it('keep every confirmation but its timestamp, shared between lessons confirmed alike; other lists stay as they were', () => {
    const a = kept(swarmEntryV2({ confirmed_by: [confirmation(1, '2026-06-01T00:00:00.000Z'), confirmation(2, '2026-06-02T00:00:00.000Z')] }));
    const b = kept(swarmEntryV2({ id: uuid(2), confirmed_by: [confirmation(1, '2026-07-01T00:00:00.000Z'), confirmation(2, '2026-07-09T00:00:00.000Z')] }));
    expect(a.confirmed_by).toEqual([
      { phase_number: 1, project_name: 'billing-api' },
      { phase_number: 2, project_name: 'billing-api' },
    ]);
    expect(b.confirmed_by).toBe(a.confirmed_by);
    expect(Object.isFrozen(a.confirmed_by)).toBe(true);
    // Nothing to leave out (no timestamps, a nested value, -0): kept as parsed.
    for (const confirmed_by of [[{ phase_number: 1, project_name: 'p' }], [{ phase_number: 1, confirmed_at: 'x', by: { name: 'n' } }], [{ phase_number: -0, confirmed_at: 'x' }], [], 'none']) {
      expect(kept(swarmEntryV2({ confirmed_by })).confirmed_by).toEqual(confirmed_by);
    }
  });
});

describe('a lesson read from the index', () => {
  let root: string;
  let index: StoreIndexService;
  let service: KnowledgeService;
  const lesson = swarmEntryV2({ id: uuid(1), confirmed_by: [confirmation(2, '2026-06-20T00:00:00.000Z'), confirmation(1, '2026-06-01T00:00:00.000Z')] });

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'cold-fields-'));
    const project = path.join(root, 'project');
    fs.mkdirSync(path.join(project, '.swarm'), { recursive: true });
    fs.mkdirSync(path.join(root, 'hive'), { recursive: true });
    fs.writeFileSync(path.join(project, '.swarm', 'knowledge.jsonl'), lines([lesson, swarmEntryV2({ id: uuid(2) })]));
    index = new StoreIndexService(resolveWorkspacePaths(project, path.join(root, 'hive'), 'flag', false), path.join(root, 'cache'), { watch: false });
    await index.ready;
    service = new KnowledgeService(index, project, () => Date.parse('2026-07-10T00:00:00.000Z'));
  });

  afterAll(async () => {
    await service.dispose();
    await index.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('is kept without its confirmation timestamps, and its detail shows the whole entry read back from its line', async () => {
    const model = await service.model();
    const entry = model.find(uuid(1))!;
    expect(entry.value.confirmed_by).toEqual([
      { phase_number: 2, project_name: 'billing-api' },
      { phase_number: 1, project_name: 'billing-api' },
    ]);
    const detail = entryDetail(model, entry);
    expect(detail.value).toEqual(lesson);
    expect(detail.timeline).toEqual([
      { phase: 1, project: 'billing-api', at: '2026-06-01T00:00:00.000Z' },
      { phase: 2, project: 'billing-api', at: '2026-06-20T00:00:00.000Z' },
    ]);
  });
});
