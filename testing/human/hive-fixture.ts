import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hiveEntry } from '../stores/sample-records';

/**
 * A real hive on disk for the write-side tests: `count` entries with ids `hive-0001…`, one
 * unparseable line and one blank line in the middle (which every write must keep byte for byte),
 * an empty project, and a user-data folder.
 */
export interface HiveFixture {
  root: string;
  project: string;
  hive: string;
  store: string;
  userData: string;
  ids: string[];
  cleanup(): void;
}

export const fixtureId = (i: number) => `hive-${String(i).padStart(4, '0')}`;

export function hiveLine(i: number, overrides: Record<string, unknown> = {}): string {
  return JSON.stringify(hiveEntry({ id: fixtureId(i), lesson: `Lesson number ${i}: keep fixture entries distinct so each line hashes differently.`, ...overrides }));
}

export function makeHiveFixture(count = 6, prefix = 'hive-write-'): HiveFixture {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const project = path.join(root, 'project');
  const hive = path.join(root, 'data', 'opencode-swarm');
  const userData = path.join(root, 'user-data');
  fs.mkdirSync(path.join(project, '.swarm'), { recursive: true });
  fs.mkdirSync(hive, { recursive: true });
  fs.mkdirSync(userData, { recursive: true });
  const lines: string[] = [];
  const ids: string[] = [];
  for (let i = 1; i <= count; i++) {
    lines.push(hiveLine(i));
    ids.push(fixtureId(i));
    if (i === 2) lines.push('{"id": "torn-by-a-crash", "lesson": "unterminated', '');
  }
  const store = path.join(hive, 'shared-learnings.jsonl');
  fs.writeFileSync(store, `${lines.join('\n')}\n`);
  return { root, project, hive, store, userData, ids, cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}

export const fileSha = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
