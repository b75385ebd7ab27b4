import { z } from 'zod';
import { surelyValid } from './fast-check';

/**
 * Shared pieces of the record schemas. Schemas are used only to FIND problems: the record the
 * console keeps is always the object read from disk (unknown fields included), never zod's
 * output, so nothing is dropped or reordered. That is why plain `z.object` (which would strip
 * unknown keys from its output) is used: unknown keys are never a problem, and it is several
 * times faster than `z.looseObject`, which copies them.
 */

export interface RecordProblem {
  kind: 'schema' | 'unknown_enum';
  reason: string;
}

export interface NormalisationNote {
  field: string;
  note: string;
}

export interface RecordCheck {
  /** The record as the plugin reads it (normalised where the plugin normalises; else the input). */
  value: Record<string, unknown>;
  problems: RecordProblem[];
  notes: NormalisationNote[];
}

export type RecordChecker = (value: Record<string, unknown>) => RecordCheck;

/** ISO-8601 date or date-time (a regex keeps zod's compiled fast path; Date.parse in a refine does not). */
export const timestamp = z.string().regex(/^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/, 'expected an ISO-8601 timestamp');
export const stringList = z.array(z.string());
export const count = z.number().int().nonnegative();

function typeName(input: unknown): string {
  if (input === undefined) return 'nothing (missing)';
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'array';
  if (typeof input === 'number' && !Number.isInteger(input)) return `number ${input}`;
  return typeof input;
}

function preview(input: unknown): string {
  const text = JSON.stringify(input) ?? String(input);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function pathOf(path: PropertyKey[]): string {
  return path.length ? path.map(String).join('.') : '(record)';
}

/** Last named key of a path (`status`, `retrieval_mode`), used for "unknown status \"foo\"". */
function fieldName(path: PropertyKey[]): string {
  for (let i = path.length - 1; i >= 0; i--) if (typeof path[i] === 'string') return String(path[i]);
  return 'value';
}

/** One zod issue as an operator-readable problem, e.g. `confidence: expected number, got string`. */
function describeIssue(issue: z.core.$ZodIssue): RecordProblem {
  const at = pathOf(issue.path);
  const input = (issue as { input?: unknown }).input;
  switch (issue.code) {
    case 'invalid_type':
      if (input === undefined) return { kind: 'schema', reason: `${at}: missing (expected ${issue.expected})` };
      return { kind: 'schema', reason: `${at}: expected ${issue.expected}, got ${typeName(input)}` };
    case 'invalid_value': {
      const allowed = issue.values.map((v) => JSON.stringify(v)).join('|');
      if (typeof input === 'string' && issue.values.every((v) => typeof v === 'string')) {
        return { kind: 'unknown_enum', reason: `unknown ${fieldName(issue.path)} ${JSON.stringify(input)} (known: ${allowed})` };
      }
      return { kind: 'schema', reason: `${at}: expected one of ${allowed}, got ${preview(input)}` };
    }
    case 'too_small':
      return { kind: 'schema', reason: `${at}: must be ≥ ${String(issue.minimum)}, got ${preview(input)}` };
    case 'too_big':
      return { kind: 'schema', reason: `${at}: must be ≤ ${String(issue.maximum)}, got ${preview(input)}` };
    default:
      return { kind: 'schema', reason: `${at}: ${issue.message}${input !== undefined ? `, got ${preview(input)}` : ''}` };
  }
}

/** Problems of `value` against `schema`, at most `limit` of them (one bad record must not flood). */
export function problemsOf(schema: z.ZodType, value: unknown, limit = 8): RecordProblem[] {
  // The common case (valid) is answered by a compiled predicate (fast-check.ts), else by zod's
  // fast path; only a failing record is parsed again with its inputs reported, to say what was found.
  if (surelyValid(schema, value) || schema.safeParse(value).success) return [];
  const parsed = schema.safeParse(value, { reportInput: true });
  if (parsed.success) return [];
  const problems = parsed.error.issues.slice(0, limit).map(describeIssue);
  if (parsed.error.issues.length > limit) {
    problems.push({ kind: 'schema', reason: `…and ${parsed.error.issues.length - limit} more problems` });
  }
  return problems;
}

/** A checker that only validates (no normalisation). */
export function validating(schema: z.ZodType): RecordChecker {
  return (value) => ({ value, problems: problemsOf(schema, value), notes: [] });
}

/**
 * A checker for logs whose lines are discriminated by a field (`type`, `event`): known kinds
 * are validated by their schema; an unknown kind is a kept record with an `unknown_enum` problem
 * unless `unknownKindsAllowed` (mixed logs written by many plugin features).
 */
export function discriminated(
  field: string,
  schemas: Record<string, z.ZodType>,
  options: { unknownKindsAllowed?: boolean; fallbackField?: string } = {},
): RecordChecker {
  const known = Object.keys(schemas);
  return (value) => {
    let kindField = field;
    let kind = value[field];
    if (kind === undefined && options.fallbackField) {
      kindField = options.fallbackField;
      kind = value[options.fallbackField];
    }
    if (typeof kind !== 'string') {
      const what = options.fallbackField ? `${field} or ${options.fallbackField}` : field;
      return { value, problems: [{ kind: 'schema', reason: `${what}: missing (expected string)` }], notes: [] };
    }
    const schema = Object.hasOwn(schemas, kind) ? schemas[kind] : undefined;
    if (!schema) {
      if (options.unknownKindsAllowed) return { value, problems: [], notes: [] };
      return {
        value,
        problems: [{ kind: 'unknown_enum', reason: `unknown ${kindField} ${JSON.stringify(kind)} (known: ${known.join('|')})` }],
        notes: [],
      };
    }
    return { value, problems: problemsOf(schema, value), notes: [] };
  };
}
