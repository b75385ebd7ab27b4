import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveWorkspacePaths } from '../platform/paths/workspace-paths';
import { findImportedArchives, importedStoreRefusal } from './imported';
import { discoverFiles, locateStores, matchPath } from './locate';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

function workspace() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'imported-'));
  roots.push(root);
  const project = path.join(root, 'project');
  const hive = path.join(root, 'hive');
  fs.mkdirSync(path.join(project, '.swarm'), { recursive: true });
  fs.mkdirSync(hive);
  const paths = resolveWorkspacePaths(project, hive, 'flag', false);
  return { paths, swarm: path.join(project, '.swarm'), hive };
}

const knowledgeFiles = (paths: ReturnType<typeof workspace>['paths']) =>
  locateStores(paths)
    .filter((l) => l.def.key === 'knowledge')
    .flatMap(discoverFiles)
    .map((f) => f.name);

describe('stores a newer plugin archived as *.imported', () => {
  it('reads the archive while no live file exists, and the live file again once one reappears', () => {
    const { paths, swarm } = workspace();
    const archive = path.join(swarm, 'knowledge.jsonl.imported');
    fs.writeFileSync(archive, '{}\n');
    expect(knowledgeFiles(paths)).toEqual(['.swarm/knowledge.jsonl.imported']);
    expect(matchPath(locateStores(paths), archive)?.storeKey).toBe('knowledge');

    fs.writeFileSync(path.join(swarm, 'knowledge.jsonl'), '{}\n');
    expect(knowledgeFiles(paths)).toEqual(['.swarm/knowledge.jsonl']);
    // The archive's rows are then forgotten by the index (it no longer belongs to a store).
    expect(matchPath(locateStores(paths), archive)).toBeNull();
    expect(findImportedArchives(paths, locateStores(paths))[0]).toMatchObject({ storeKey: 'knowledge', liveFileExists: true });
  });

  it('lists unknown *.imported files too, and refuses writes only to imported stores', () => {
    const { paths, swarm, hive } = workspace();
    fs.writeFileSync(path.join(swarm, 'plan-ledger.jsonl.imported'), '');
    fs.writeFileSync(path.join(hive, 'shared-learnings.jsonl.imported'), '');
    const archives = findImportedArchives(paths, locateStores(paths));
    expect(archives.map((a) => [a.storeKey, a.name])).toEqual([
      ['hive', 'shared-learnings.jsonl.imported'],
      [null, '.swarm/plan-ledger.jsonl.imported'],
    ]);
    expect(archives[0]?.notice).toMatch(/^the plugin keeps Hive knowledge in the plugin's database since /);
    expect(importedStoreRefusal(paths, path.join(hive, 'shared-learnings.jsonl'))).toContain("has been imported into the plugin's database");
    expect(importedStoreRefusal(paths, path.join(swarm, 'knowledge.jsonl'))).toBeNull();
  });
});
