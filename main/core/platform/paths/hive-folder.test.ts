import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkHiveFolder } from './hive-folder';

const made: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hive-folder-'));
  made.push(dir);
  return dir;
};
afterEach(() => made.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

describe('checkHiveFolder', () => {
  it('accepts the data folder when it holds the hive store or only link stores', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'shared-learnings.jsonl'), '');
    expect(checkHiveFolder(dir)).toEqual({ state: 'hive', suggestion: null, message: null });
    const linksOnly = tempDir();
    fs.mkdirSync(path.join(linksOnly, 'links', 'team'), { recursive: true });
    expect(checkHiveFolder(linksOnly).state).toBe('hive');
  });

  it('offers <dir>/opencode-swarm when pointed at the folder above it', () => {
    const share = tempDir();
    const dataDir = path.join(share, 'opencode-swarm');
    fs.mkdirSync(path.join(dataDir, 'links'), { recursive: true });
    const check = checkHiveFolder(share);
    expect(check.state).toBe('parent');
    expect(check.suggestion).toBe(dataDir);
    expect(check.message).toContain('no hive here');
    expect(check.message).toContain(dataDir);
  });

  it("offers Windows' opencode-swarm\\Data inside the opencode-swarm folder", () => {
    const local = tempDir();
    const data = path.join(local, 'opencode-swarm', 'Data');
    fs.mkdirSync(data, { recursive: true });
    fs.writeFileSync(path.join(data, 'shared-learnings.jsonl'), '');
    expect(checkHiveFolder(local).suggestion).toBe(data);
    expect(checkHiveFolder(path.join(local, 'opencode-swarm')).suggestion).toBe(data);
  });

  it('says "no hive here" for an empty folder, a missing one and a file', () => {
    const empty = tempDir();
    fs.writeFileSync(path.join(empty, 'notes.txt'), 'x');
    expect(checkHiveFolder(empty)).toMatchObject({ state: 'empty', suggestion: null });
    expect(checkHiveFolder(empty).message).toMatch(/^no hive here: .* holds no shared-learnings\.jsonl/);
    expect(checkHiveFolder(path.join(empty, 'nope'))).toMatchObject({ state: 'missing', message: expect.stringContaining('does not exist') });
    expect(checkHiveFolder(path.join(empty, 'notes.txt'))).toMatchObject({ state: 'not_a_folder' });
  });
});
