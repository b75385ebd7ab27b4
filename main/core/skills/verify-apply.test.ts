import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApplyResult } from './apply';
import { verifyApply } from './verify-apply';
import { entryLine } from '../../../testing/skills/skills-workspace';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) fs.rmSync(r, { recursive: true, force: true });
});

/** A backup folder and a live store, as verifyApply finds them after a commit. */
function setUp(before: string, after: string) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'verify-apply-'));
  roots.push(root);
  fs.mkdirSync(path.join(root, 'backup'));
  fs.writeFileSync(path.join(root, 'backup', 'knowledge.jsonl'), before);
  const knowledge = path.join(root, 'knowledge.jsonl');
  fs.writeFileSync(knowledge, after);
  return { backupDir: path.join(root, 'backup'), files: { 'knowledge.jsonl': knowledge, 'SKILL.md': path.join(root, 'SKILL.md'), 'proposal.md': path.join(root, 'proposal.md') } };
}

const result = (file: string, store: Partial<ApplyResult['stores'][number]>, notFound: string[] = []): ApplyResult => ({
  activated: false,
  refusal: null,
  written: [],
  removed: [],
  stamped: true,
  stampNote: null,
  stores: [{ tier: 'swarm', file, stampedIds: [], lines: 0, note: null, ...store }],
  notFound,
  rejectedEdit: null,
  evaluation: null,
  proposalKept: true,
});

const stamped = (id: string) => entryLine(id, { generated_skill_slug: 'scope', generated_skill_path: '.opencode/skills/generated/scope/SKILL.md', updated_at: '2026-12-01T00:00:00.000Z' });

describe('verifyApply: the result never says verified for a line the apply left alone', () => {
  it('a source id reported as in no store while a line still carries it unstamped is a problem', () => {
    const bytes = `${entryLine('k0')}\n${entryLine('k1')}`;
    const { backupDir, files } = setUp(bytes, bytes);
    const check = verifyApply(backupDir, files, result(files['knowledge.jsonl'], { note: 'none of the source ids is in this store' }, ['k1']), 'scope');
    expect(check.ok).toBe(false);
    expect(check.problems).toEqual(['knowledge.jsonl line 2 holds the source id k1 but was not stamped']);
  });

  it('a final line without its newline is compared like any other', () => {
    const { backupDir, files } = setUp(`${entryLine('k1')}\n${entryLine('k2')}`, `${stamped('k1')}\n${entryLine('k2', { lesson: 'changed behind our back' })}\n`);
    const check = verifyApply(backupDir, files, result(files['knowledge.jsonl'], { stampedIds: ['k1'], lines: 1 }), 'scope');
    expect(check.problems).toEqual(['knowledge.jsonl line 2 changed beyond the stamp']);
  });

  it('a stamped final line that gained its newline verifies', () => {
    const { backupDir, files } = setUp(`${entryLine('k0')}\n${entryLine('k1')}`, `${entryLine('k0')}\n${stamped('k1')}\n`);
    expect(verifyApply(backupDir, files, result(files['knowledge.jsonl'], { stampedIds: ['k1'], lines: 1 }), 'scope')).toEqual({ ok: true, problems: [] });
  });
});
