import fs from 'node:fs';
import path from 'node:path';
import { isInside, isValidSlug } from './skill-paths';

/** Limits of the plugin's eval loader (docs/plugin-formats.md#skill-evals; `src/services/skill-evaluator.ts`). */
export const EVAL_LIMITS = { files: 50, fileBytes: 64 * 1024, cases: 100, phrasesPerCase: 40, phraseLength: 160 } as const;

export interface EvalCase {
  id: string;
  task?: string;
  required: string[];
  forbidden: string[];
}

export type EvalSet = { status: 'missing'; files: string[]; cases: EvalCase[] } | { status: 'loaded'; files: string[]; cases: EvalCase[] } | { status: 'invalid'; files: string[]; cases: EvalCase[]; reason: string };

const phrase = (value: unknown): string | undefined => {
  if (typeof value !== 'string') return undefined;
  const text = value.replace(/\s+/g, ' ').trim();
  return text ? text.slice(0, EVAL_LIMITS.phraseLength) : undefined;
};

function phraseList(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of value.slice(0, EVAL_LIMITS.phrasesPerCase)) {
    const text = phrase(raw);
    if (!text || seen.has(text.toLowerCase())) continue;
    seen.add(text.toLowerCase());
    out.push(text);
  }
  return out;
}

function casesOf(parsed: unknown, file: string): EvalCase[] {
  const raw = Array.isArray(parsed) ? parsed : parsed && typeof parsed === 'object' && Array.isArray((parsed as { cases?: unknown }).cases) ? (parsed as { cases: unknown[] }).cases : [parsed];
  const cases: EvalCase[] = [];
  for (let i = 0; i < raw.length && cases.length < EVAL_LIMITS.cases; i++) {
    const item = raw[i];
    if (!item || typeof item !== 'object') continue;
    const record = item as Record<string, unknown>;
    const required = phraseList(record.required_phrases);
    const forbidden = phraseList(record.forbidden_phrases);
    // A case with neither list says nothing and is ignored, as the plugin does.
    if (required.length === 0 && forbidden.length === 0) continue;
    const task = phrase(record.task);
    cases.push({ id: phrase(record.id) ?? `${file}#${i + 1}`, ...(task ? { task } : {}), required, forbidden });
  }
  return cases;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Loads `.swarm/skills/evals/<slug>/*.json` exactly as the plugin does: sorted, capped, symlinks confined. */
export function loadEvalSet(projectDir: string, slug: string): EvalSet {
  if (!isValidSlug(slug)) return { status: 'invalid', files: [], cases: [], reason: 'invalid slug' };
  const root = path.join(projectDir, '.swarm', 'skills', 'evals', slug);
  if (!fs.existsSync(root)) return { status: 'missing', files: [], cases: [] };
  let realRoot: string;
  let names: string[];
  try {
    realRoot = fs.realpathSync(root);
    if (!isInside(fs.realpathSync(projectDir), realRoot)) return { status: 'invalid', files: [], cases: [], reason: 'eval directory escaped project root' };
    names = fs.readdirSync(root);
  } catch (error) {
    return { status: 'invalid', files: [], cases: [], reason: `eval directory unreadable: ${message(error)}` };
  }
  const jsonFiles = names.filter((n) => n.endsWith('.json')).sort((a, b) => a.localeCompare(b)).slice(0, EVAL_LIMITS.files);
  if (jsonFiles.length === 0) return { status: 'missing', files: [], cases: [] };

  const cases: EvalCase[] = [];
  const files: string[] = [];
  for (const name of jsonFiles) {
    const full = path.join(root, name);
    let readFrom = full;
    let size: number;
    try {
      const link = fs.lstatSync(full);
      if (link.isSymbolicLink()) {
        const real = fs.realpathSync(full);
        if (!isInside(realRoot, real)) return { status: 'invalid', files, cases, reason: `eval path escaped root: ${name}` };
        readFrom = real;
        const target = fs.statSync(real);
        if (!target.isFile()) continue;
        size = target.size;
      } else {
        if (!link.isFile()) continue;
        size = link.size;
      }
    } catch (error) {
      return { status: 'invalid', files, cases, reason: `eval file unreadable: ${name}: ${message(error)}` };
    }
    if (size > EVAL_LIMITS.fileBytes) return { status: 'invalid', files, cases, reason: `eval file too large: ${name}` };
    let parsed: unknown;
    try {
      parsed = JSON.parse(fs.readFileSync(readFrom, 'utf8'));
    } catch (error) {
      return { status: 'invalid', files, cases, reason: `eval file invalid JSON: ${name}: ${message(error)}` };
    }
    files.push(path.relative(projectDir, full).split(path.sep).join('/'));
    cases.push(...casesOf(parsed, name));
    if (cases.length >= EVAL_LIMITS.cases) break;
  }
  if (cases.length === 0) return { status: 'invalid', files, cases: [], reason: 'eval set contained no valid cases' };
  return { status: 'loaded', files, cases: cases.slice(0, EVAL_LIMITS.cases) };
}

interface CaseScore {
  score: number;
  failures: string[];
}

const contains = (content: string, needle: string) => content.toLowerCase().includes(needle.toLowerCase());

/** Required-phrase hit ratio, minus 1 when any forbidden phrase appears, floored at 0. */
export function scoreCase(content: string, testCase: EvalCase): CaseScore {
  const failures: string[] = [];
  let hits = 0;
  for (const p of testCase.required) {
    if (contains(content, p)) hits++;
    else failures.push(`missing required phrase: ${p}`);
  }
  let penalty = 0;
  for (const p of testCase.forbidden) {
    if (contains(content, p)) {
      failures.push(`contains forbidden phrase: ${p}`);
      penalty = 1;
    }
  }
  const ratio = testCase.required.length === 0 ? 1 : hits / testCase.required.length;
  return { score: Math.max(0, ratio - penalty), failures };
}

export interface CaseResult {
  id: string;
  task: string | null;
  candidate: CaseScore;
  /** null without an incumbent. */
  incumbent: CaseScore | null;
  /** Strictly better than the incumbent on score or on failures (always false without one). */
  improves: boolean;
  /** Would this case, alone, let the gate pass its per-case condition. */
  holds: boolean;
}

export interface EvalOutcome {
  status: 'unevaluated' | 'passed' | 'rejected' | 'invalid_eval_set';
  passed: boolean;
  reason: string;
  rule: 'none' | 'strictly_improve' | 'all_perfect';
  evalFiles: string[];
  caseCount: number;
  candidateScore: number;
  incumbentScore: number;
  cases: CaseResult[];
}

const average = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);

/**
 * The plugin's gate: no eval set passes as `unevaluated`; a malformed set fails; with an
 * incumbent every case must be no worse and one strictly better; without one every case
 * must be perfect. `incumbent` is the active SKILL.md text, or undefined when there is none
 * (the plugin treats an empty incumbent as none).
 */
export function evaluate(set: EvalSet, candidate: string, incumbent: string | undefined): EvalOutcome {
  const hasIncumbent = Boolean(incumbent);
  const rule = hasIncumbent ? 'strictly_improve' : 'all_perfect';
  if (set.status === 'missing') return { status: 'unevaluated', passed: true, reason: 'no eval set found', rule: 'none', evalFiles: [], caseCount: 0, candidateScore: 0, incumbentScore: 0, cases: [] };
  if (set.status === 'invalid') return { status: 'invalid_eval_set', passed: false, reason: set.reason, rule, evalFiles: set.files, caseCount: set.cases.length, candidateScore: 0, incumbentScore: 0, cases: [] };
  const cases: CaseResult[] = set.cases.map((c) => {
    const cand = scoreCase(candidate, c);
    const inc = scoreCase(incumbent ?? '', c);
    const improves = hasIncumbent && (cand.score > inc.score || cand.failures.length < inc.failures.length);
    const holds = hasIncumbent ? cand.score >= inc.score && cand.failures.length <= inc.failures.length : cand.score >= 1 && cand.failures.length === 0;
    return { id: c.id, task: c.task ?? null, candidate: cand, incumbent: hasIncumbent ? inc : null, improves, holds };
  });
  const passed = hasIncumbent ? cases.every((c) => c.holds) && cases.some((c) => c.improves) : cases.every((c) => c.holds);
  const reason = passed
    ? hasIncumbent
      ? 'candidate strictly improves incumbent on every eval case'
      : 'candidate satisfies eval set'
    : hasIncumbent
      ? 'candidate did not strictly improve incumbent on every eval case'
      : 'candidate did not satisfy eval set';
  return {
    status: passed ? 'passed' : 'rejected',
    passed,
    reason,
    rule,
    evalFiles: set.files,
    caseCount: set.cases.length,
    candidateScore: average(cases.map((c) => c.candidate.score)),
    incumbentScore: hasIncumbent ? average(cases.map((c) => (c.incumbent as CaseScore).score)) : 0,
    cases,
  };
}
