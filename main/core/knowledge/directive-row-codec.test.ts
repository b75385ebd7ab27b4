import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DirectiveRow } from '../../../shared/contract/knowledge';
import { generateDemoWorkspace } from '../../demo/generate';
import { resolveWorkspacePaths } from '../platform/paths/workspace-paths';
import { StoreIndexService } from '../store-index/store-index-service';
import { decodeDirectiveRow, encodeDirectiveRow } from './directive-row-codec';
import { matchesText } from './directive-list';
import { keptRowHolds } from './kept-row-search';
import { KnowledgeService } from './knowledge-service';

/** Directive rows kept in the index without their keys come back as the model computed them. */

let root: string;
let rows: DirectiveRow[] = [];

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'directive-row-codec-'));
  const project = path.join(root, 'project');
  const hive = path.join(root, 'hive');
  generateDemoWorkspace({ projectDir: project, hiveDir: hive, seed: 5, scale: { knowledgeEntries: 600 } });
  const index = new StoreIndexService(resolveWorkspacePaths(project, hive, 'flag', false), path.join(root, 'cache'), { watch: false });
  const service = new KnowledgeService(index, project, () => Date.parse('2026-08-01T00:00:00.000Z'));
  try {
    await index.ready;
    rows = (await service.model()).directiveRows().toArray();
  } finally {
    await service.dispose();
    await index.close();
  }
}, 120_000);

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('directive row codec', () => {
  it('gives every row of a model back with the same keys and values, in well under its JSON size', () => {
    expect(rows.length).toBeGreaterThan(50);
    // The rows exercise what the layout nests: checks, an expiry marker and its absence.
    expect(rows.some((row) => row.maturity.checks.length > 1)).toBe(true);
    expect(rows.some((row) => row.expiry === null) && rows.some((row) => row.expiry !== null)).toBe(true);
    let packed = 0;
    let plain = 0;
    for (const row of rows) {
      const text = encodeDirectiveRow(row);
      const back = decodeDirectiveRow(text);
      expect(back).toStrictEqual({ ...row });
      packed += text.length;
      plain += JSON.stringify(row).length;
    }
    expect(packed / plain).toBeLessThan(0.6);
  });

  it('refuses a row missing a field and a stored text of another shape (the model then answers)', () => {
    const { lastViolationAt: _gone, ...short } = rows[0]!;
    expect(() => encodeDirectiveRow(short as DirectiveRow)).toThrow(/lastViolationAt/);
    const text = encodeDirectiveRow(rows[0]!);
    const values = JSON.parse(text) as unknown[];
    expect(() => decodeDirectiveRow(JSON.stringify(values.slice(1)))).toThrow(/another shape/);
    expect(() => decodeDirectiveRow(JSON.stringify(rows[0]))).toThrow(/another shape/);
  });

  it('tells from a kept row’s text whether it holds a search text, as the model’s search does (or that it cannot tell)', () => {
    // Rows as the model makes them, and copies whose searched strings hold what JSON escapes or
    // lower-casing changes, or whose other fields hold the searched words.
    const tricky: DirectiveRow[] = rows.slice(0, 40).flatMap((row, i) => [
      { ...row, lesson: `Quote "the path" as C:\\work, then ${row.lesson}` },
      { ...row, triggers: [...row.triggers, `line one\nline two, ${i}`], required_actions: ['İstanbul deploy, then BEFORE rollback'] },
      { ...row, required_actions: [], forbidden_actions: [], verification_checks: [], triggers: [], lesson: 'x' },
      { ...row, enforcement_mode: 'before, run the tests', applies_to_agents: ['coder, reviewer'], generated_skill_path: 'skills/before/SKILL.md' },
    ]);
    const needles = ['before', 'nline', 'run the', ', ', ',', 'e, t', 'the path', 'c:', 'x', 'line two', 'i̇stanbul', 'reviewer', 'skill.md', 'swarm', 'active', 'critical', '0', 'rollback', 'tests'];
    let told = 0;
    const untold = new Set<DirectiveRow>();
    for (const row of [...rows, ...tricky]) {
      const text = encodeDirectiveRow(row).toLowerCase();
      for (const needle of [...needles, row.id.slice(2, 9), row.lesson.slice(5, 14).toLowerCase()]) {
        // The caller asks only for a needle JSON writes as is, lower-cased and trimmed.
        if (JSON.stringify(needle) !== `"${needle}"` || needle.trim() !== needle || needle === '') continue;
        const held = keptRowHolds(text, needle);
        if (held === null) {
          untold.add(row);
          continue;
        }
        told++;
        expect(held, `${needle} in ${row.id}`).toBe(matchesText(row, needle));
      }
    }
    // Only rows whose searched strings hold an escape (the first two kinds of copies) are left to decoding.
    expect(told).toBeGreaterThan(5000);
    expect([...untold].every((row) => /["\\\n]/.test(row.lesson + row.triggers.join('')))).toBe(true);
    expect(untold.size).toBe(80);
  });
});
