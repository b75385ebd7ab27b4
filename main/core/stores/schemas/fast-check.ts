import type { z } from 'zod';

/**
 * A plain predicate compiled from a record schema, that says "valid" only where zod would: every
 * record of every ingest is checked, and almost all are valid, so the common case is answered by
 * a few typeof tests instead of zod's parse (which builds a result and walks its checks, about
 * a fifth of a large ingest). Anything the predicate does not recognise — a schema construct or
 * a check it does not know, a missing required field, any invalid value — gives false, and the
 * caller asks zod, which alone describes problems. So the predicate must never say true where zod
 * fails (fast-check.test.ts compares them); saying false too often only costs time.
 *
 * Covered: string (regex, min/max length), number (safe integer, inclusive or exclusive bounds),
 * boolean, enum, literal, object (unknown keys allowed, as z.object and z.looseObject), array
 * (min/max length), record with string keys, tuple without rest, union, optional, nullable,
 * unknown/any. Values are JSON.parse output (no undefined inside, no NaN or Infinity).
 */
type Check = (value: unknown) => boolean;

const UNSUPPORTED = Symbol('unsupported');

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

interface CheckDef {
  check: string;
  format?: string;
  pattern?: RegExp;
  minimum?: number;
  maximum?: number;
  value?: number;
  inclusive?: boolean;
}

// zod's internal definitions (z.core), read as data.
type Def = Record<string, unknown> & { type: string; checks?: { _zod: { def: CheckDef } }[] };
const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;

function lengthChecks(checks: CheckDef[], also: (c: CheckDef) => Check | typeof UNSUPPORTED | null): Check[] | typeof UNSUPPORTED {
  const out: Check[] = [];
  for (const c of checks) {
    if (c.check === 'min_length') {
      const min = c.minimum as number;
      out.push((v) => (v as { length: number }).length >= min);
    } else if (c.check === 'max_length') {
      const max = c.maximum as number;
      out.push((v) => (v as { length: number }).length <= max);
    } else {
      const other = also(c);
      if (other === UNSUPPORTED || other === null) return UNSUPPORTED;
      out.push(other);
    }
  }
  return out;
}

const all = (base: Check, checks: Check[]): Check =>
  checks.length === 0
    ? base
    : (v) => {
        if (!base(v)) return false;
        for (const check of checks) if (!check(v)) return false;
        return true;
      };

function compile(schema: unknown): Check | typeof UNSUPPORTED {
  const def = defOf(schema);
  const checks = (def.checks ?? []).map((c) => c._zod.def);
  switch (def.type) {
    case 'string': {
      const extra = lengthChecks(checks, (c) => {
        if (c.check !== 'string_format' || c.format !== 'regex' || !(c.pattern instanceof RegExp) || c.pattern.global || c.pattern.sticky) return UNSUPPORTED;
        const pattern = c.pattern;
        return (v) => pattern.test(v as string);
      });
      return extra === UNSUPPORTED ? UNSUPPORTED : all((v) => typeof v === 'string', extra);
    }
    case 'number': {
      const extra: Check[] = [];
      for (const c of checks) {
        if (c.check === 'number_format' && c.format === 'safeint') extra.push((v) => Number.isSafeInteger(v));
        else if (c.check === 'greater_than' && typeof c.value === 'number') {
          const bound = c.value;
          extra.push(c.inclusive ? (v) => (v as number) >= bound : (v) => (v as number) > bound);
        } else if (c.check === 'less_than' && typeof c.value === 'number') {
          const bound = c.value;
          extra.push(c.inclusive ? (v) => (v as number) <= bound : (v) => (v as number) < bound);
        } else return UNSUPPORTED;
      }
      return all((v) => typeof v === 'number' && Number.isFinite(v), extra);
    }
    case 'boolean':
      return checks.length ? UNSUPPORTED : (v) => typeof v === 'boolean';
    case 'unknown':
    case 'any':
      return checks.length ? UNSUPPORTED : () => true;
    case 'enum':
    case 'literal': {
      if (checks.length) return UNSUPPORTED;
      const values = new Set<unknown>(def.type === 'enum' ? Object.values(def.entries as Record<string, unknown>) : (def.values as unknown[]));
      return (v) => values.has(v);
    }
    case 'optional':
    case 'nullable': {
      const inner = compile(def.innerType);
      if (inner === UNSUPPORTED || checks.length) return UNSUPPORTED;
      return def.type === 'optional' ? (v) => v === undefined || inner(v) : (v) => v === null || inner(v);
    }
    case 'object': {
      const catchall = def.catchall === undefined ? null : defOf(def.catchall).type;
      if (checks.length || (catchall !== null && catchall !== 'unknown')) return UNSUPPORTED;
      const fields: [string, Check, boolean][] = [];
      for (const [key, field] of Object.entries(def.shape as Record<string, unknown>)) {
        const check = compile(field);
        if (check === UNSUPPORTED) return UNSUPPORTED;
        fields.push([key, check, defOf(field).type === 'optional']);
      }
      return (v) => {
        if (!isObject(v)) return false;
        for (const [key, check, optional] of fields) {
          const value = Object.hasOwn(v, key) ? v[key] : undefined;
          if (value === undefined ? !optional : !check(value)) return false;
        }
        return true;
      };
    }
    case 'array': {
      const element = compile(def.element);
      if (element === UNSUPPORTED) return UNSUPPORTED;
      const extra = lengthChecks(checks, () => UNSUPPORTED);
      if (extra === UNSUPPORTED) return UNSUPPORTED;
      return all((v) => {
        if (!Array.isArray(v)) return false;
        for (const item of v) if (!element(item)) return false;
        return true;
      }, extra);
    }
    case 'record': {
      const key = defOf(def.keyType);
      const value = compile(def.valueType);
      if (checks.length || key.type !== 'string' || (key.checks ?? []).length || value === UNSUPPORTED) return UNSUPPORTED;
      return (v) => {
        if (!isObject(v) || Object.getPrototypeOf(v) !== Object.prototype) return false;
        for (const item of Object.values(v)) if (!value(item)) return false;
        return true;
      };
    }
    case 'tuple': {
      if (checks.length || (def.rest !== null && def.rest !== undefined)) return UNSUPPORTED;
      const items: Check[] = [];
      for (const item of def.items as unknown[]) {
        const check = compile(item);
        if (check === UNSUPPORTED) return UNSUPPORTED;
        items.push(check);
      }
      return (v) => Array.isArray(v) && v.length === items.length && items.every((check, i) => check(v[i]));
    }
    case 'union': {
      const options: Check[] = [];
      for (const option of def.options as unknown[]) {
        const check = compile(option);
        if (check === UNSUPPORTED) return UNSUPPORTED;
        options.push(check);
      }
      return checks.length ? UNSUPPORTED : (v) => options.some((check) => check(v));
    }
    default:
      return UNSUPPORTED;
  }
}

const compiled = new WeakMap<object, Check>();
const never: Check = () => false;

/** True only if zod would accept `value` against `schema` (false: ask zod). */
export function surelyValid(schema: z.ZodType, value: unknown): boolean {
  let check = compiled.get(schema);
  if (!check) {
    const built = compile(schema);
    check = built === UNSUPPORTED ? never : built;
    compiled.set(schema, check);
  }
  return check(value);
}

/** Whether a schema is covered by the predicate at all (for the tests: the stores' schemas must be). */
export const isCovered = (schema: z.ZodType): boolean => compile(schema) !== UNSUPPORTED;
