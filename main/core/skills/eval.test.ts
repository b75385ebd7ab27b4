import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EVAL_LIMITS, evaluate, loadEvalSet, scoreCase, type EvalSet } from './eval';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function project(files: Record<string, unknown> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skill-eval-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  for (const [name, value] of Object.entries(files)) {
    const file = path.join(dir, '.swarm', 'skills', 'evals', 'scope', name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return dir;
}

const set = (cases: EvalSet['cases']): EvalSet => ({ status: 'loaded', files: ['x.json'], cases });

describe('eval scoring (docs/plugin-formats.md#skill-evals)', () => {
  it('scores required hits as a ratio, case-insensitively, and a forbidden phrase costs a whole point, floored at 0', () => {
    const c = { id: 'c', required: ['declare_scope', 'File Globs', 'reviewer'], forbidden: ['heredoc'] };
    expect(scoreCase('Call DECLARE_SCOPE with the exact file globs', c)).toEqual({ score: 2 / 3, failures: ['missing required phrase: reviewer'] });
    expect(scoreCase('declare_scope, file globs, reviewer, heredoc', c)).toEqual({ score: 0, failures: ['contains forbidden phrase: heredoc'] });
    expect(scoreCase('nothing', { id: 'f', required: [], forbidden: ['x'] })).toEqual({ score: 1, failures: [] });
  });

  it('with an incumbent: passes only when every case is no worse and one is strictly better', () => {
    const s = set([
      { id: 'a', required: ['alpha'], forbidden: [] },
      { id: 'b', required: ['beta'], forbidden: ['gamma'] },
    ]);
    const equal = evaluate(s, 'alpha beta', 'alpha beta');
    expect(equal).toMatchObject({ status: 'rejected', passed: false, rule: 'strictly_improve', reason: 'candidate did not strictly improve incumbent on every eval case', candidateScore: 1, incumbentScore: 1 });
    const better = evaluate(s, 'alpha beta', 'alpha');
    expect(better).toMatchObject({ status: 'passed', passed: true, reason: 'candidate strictly improves incumbent on every eval case', candidateScore: 1, incumbentScore: 0.5 });
    expect(better.cases.map((c) => [c.id, c.candidate.score, c.incumbent?.score, c.improves])).toEqual([
      ['a', 1, 1, false],
      ['b', 1, 0, true],
    ]);
    // Better on one case, worse on another: refused.
    const mixed = evaluate(s, 'beta', 'alpha');
    expect(mixed.passed).toBe(false);
    expect(mixed.cases.map((c) => c.holds)).toEqual([false, true]);
    // Fewer failures at the same score counts as strictly better.
    const fewer = evaluate(set([{ id: 'c', required: [], forbidden: ['x', 'y'] }]), 'x', 'x y');
    expect(fewer).toMatchObject({ passed: true, candidateScore: 0, incumbentScore: 0 });
  });

  it('without an incumbent: every case must be perfect', () => {
    const s = set([
      { id: 'a', required: ['alpha', 'beta'], forbidden: [] },
      { id: 'b', required: [], forbidden: ['gamma'] },
    ]);
    expect(evaluate(s, 'alpha beta', undefined)).toMatchObject({ status: 'passed', rule: 'all_perfect', reason: 'candidate satisfies eval set', incumbentScore: 0 });
    const partial = evaluate(s, 'alpha', undefined);
    expect(partial).toMatchObject({ status: 'rejected', reason: 'candidate did not satisfy eval set', candidateScore: 0.75 });
    expect(partial.cases[0]?.incumbent).toBeNull();
    // An empty incumbent is no incumbent, as in the plugin.
    expect(evaluate(s, 'alpha beta', '').rule).toBe('all_perfect');
  });

  it('no fixtures: unevaluated, and it passes', () => {
    const result = evaluate(loadEvalSet(project(), 'scope'), 'anything', 'incumbent');
    expect(result).toMatchObject({ status: 'unevaluated', passed: true, reason: 'no eval set found', caseCount: 0 });
  });

  it('loads single cases, arrays and {cases}, sorted by file name, with repo-relative file labels', () => {
    const dir = project({
      'b.json': [{ id: 'two', required_phrases: ['x'] }, { task: 'unnamed', forbidden_phrases: ['y'] }],
      'a.json': { id: 'one', required_phrases: ['x', 'X', ' x '] },
      'c.json': { cases: [{ id: 'three', required_phrases: ['z'] }, { id: 'ignored-no-lists' }] },
      'notes.txt': 'not a fixture',
    });
    const loaded = loadEvalSet(dir, 'scope');
    expect(loaded.status).toBe('loaded');
    expect(loaded.files).toEqual(['.swarm/skills/evals/scope/a.json', '.swarm/skills/evals/scope/b.json', '.swarm/skills/evals/scope/c.json']);
    expect(loaded.cases.map((c) => c.id)).toEqual(['one', 'two', 'b.json#2', 'three']);
    // Duplicate phrases (case-insensitive, whitespace-collapsed) count once.
    expect(loaded.cases[0]?.required).toEqual(['x']);
  });

  it('a malformed set fails: invalid JSON, an oversized file, or no valid case', () => {
    const bad = evaluate(loadEvalSet(project({ 'a.json': '{"cases": [' }), 'scope'), 'x', undefined);
    expect(bad).toMatchObject({ status: 'invalid_eval_set', passed: false });
    expect(bad.reason).toMatch(/^eval file invalid JSON: a\.json/);
    const big = loadEvalSet(project({ 'a.json': JSON.stringify({ required_phrases: ['x'], pad: 'p'.repeat(EVAL_LIMITS.fileBytes) }) }), 'scope');
    expect(big).toMatchObject({ status: 'invalid', reason: 'eval file too large: a.json' });
    expect(loadEvalSet(project({ 'a.json': [{ id: 'no lists' }] }), 'scope')).toMatchObject({ status: 'invalid', reason: 'eval set contained no valid cases' });
  });

  it('applies the fixture limits: 100 cases, 40 phrases of 160 chars, 50 files', () => {
    const many = Array.from({ length: 150 }, (_, i) => ({ id: `c${i}`, required_phrases: [`p${i}`] }));
    const phrases = Array.from({ length: 60 }, (_, i) => `phrase-${i}-${'x'.repeat(200)}`);
    const dir = project({ 'a.json': [{ id: 'long', required_phrases: phrases }], 'b.json': many });
    const loaded = loadEvalSet(dir, 'scope');
    expect(loaded.cases).toHaveLength(100);
    expect(loaded.cases[0]?.required).toHaveLength(40);
    expect(loaded.cases[0]?.required[0]).toHaveLength(160);
    const files = Object.fromEntries(Array.from({ length: 55 }, (_, i) => [`f${String(i).padStart(2, '0')}.json`, { id: `f${i}`, required_phrases: ['x'] }]));
    expect(loadEvalSet(project(files), 'scope').files).toHaveLength(50);
  });

  it('a symlinked fixture that leaves the eval folder makes the set invalid', () => {
    const dir = project({ 'a.json': { required_phrases: ['x'] } });
    const outside = path.join(dir, 'outside.json');
    fs.writeFileSync(outside, JSON.stringify({ required_phrases: ['y'] }));
    fs.symlinkSync(outside, path.join(dir, '.swarm', 'skills', 'evals', 'scope', 'b.json'));
    expect(loadEvalSet(dir, 'scope')).toMatchObject({ status: 'invalid', reason: 'eval path escaped root: b.json' });
  });
});
