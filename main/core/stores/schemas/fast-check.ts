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

/**
 * The predicate is generated as JavaScript source, one small function per schema node, as zod
 * does for its own fast path: each field is read by its name at its own site and each check calls
 * one known function, so V8 inlines them (closures walked over a field list made every read and
 * every call site megamorphic, 3–4 µs a receipt record).
 */
class Source {
  readonly functions: string[] = [];
  /** Values the source refers to (patterns, sets) as `k[i]`. */
  readonly constants: unknown[] = [];

  constant(value: unknown): string {
    this.constants.push(value);
    return `k[${this.constants.length - 1}]`;
  }

  /** Adds `function fN(v) { body }` and returns its name. */
  function(body: string): string {
    const name = `f${this.functions.length}`;
    this.functions.push(`function ${name}(v) {\n${body}\n}`);
    return name;
  }
}

/** A JavaScript literal for a value an enum or literal may hold, or null when it has none. */
function literal(value: unknown): string | null {
  if (typeof value === 'string' || typeof value === 'boolean' || value === null) return JSON.stringify(value);
  if (typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0)) return String(value);
  return null;
}

/** Length conditions on `v` (min/max), plus whatever `also` makes of other checks. */
function lengthConditions(checks: CheckDef[], also: (c: CheckDef) => string | typeof UNSUPPORTED): string[] | typeof UNSUPPORTED {
  const out: string[] = [];
  for (const c of checks) {
    if (c.check === 'min_length' && typeof c.minimum === 'number') out.push(`v.length >= ${c.minimum}`);
    else if (c.check === 'max_length' && typeof c.maximum === 'number') out.push(`v.length <= ${c.maximum}`);
    else {
      const other = also(c);
      if (other === UNSUPPORTED) return UNSUPPORTED;
      out.push(other);
    }
  }
  return out;
}

const returnAll = (conditions: string[]) => `return ${conditions.map((c) => `(${c})`).join(' && ')};`;

/** The name of the function checking `schema` (added to `source`), or UNSUPPORTED. */
function generate(schema: unknown, source: Source): string | typeof UNSUPPORTED {
  const def = defOf(schema);
  const checks = (def.checks ?? []).map((c) => c._zod.def);
  switch (def.type) {
    case 'string': {
      const extra = lengthConditions(checks, (c) => {
        if (c.check !== 'string_format' || c.format !== 'regex' || !(c.pattern instanceof RegExp) || c.pattern.global || c.pattern.sticky) return UNSUPPORTED;
        return `${source.constant(c.pattern)}.test(v)`;
      });
      return extra === UNSUPPORTED ? UNSUPPORTED : source.function(returnAll(["typeof v === 'string'", ...extra]));
    }
    case 'number': {
      const extra: string[] = [];
      for (const c of checks) {
        if (c.check === 'number_format' && c.format === 'safeint') extra.push('Number.isSafeInteger(v)');
        else if ((c.check === 'greater_than' || c.check === 'less_than') && typeof c.value === 'number' && literal(c.value) !== null) {
          extra.push(`v ${c.check === 'greater_than' ? '>' : '<'}${c.inclusive ? '=' : ''} ${literal(c.value)}`);
        } else return UNSUPPORTED;
      }
      return source.function(returnAll(["typeof v === 'number'", 'Number.isFinite(v)', ...extra]));
    }
    case 'boolean':
      return checks.length ? UNSUPPORTED : source.function("return typeof v === 'boolean';");
    case 'unknown':
    case 'any':
      return checks.length ? UNSUPPORTED : source.function('return true;');
    case 'enum':
    case 'literal': {
      if (checks.length) return UNSUPPORTED;
      const values = def.type === 'enum' ? Object.values(def.entries as Record<string, unknown>) : (def.values as unknown[]);
      const literals = values.map(literal);
      if (literals.length > 0 && literals.length <= 12 && literals.every((l) => l !== null)) return source.function(`return ${literals.map((l) => `v === ${l}`).join(' || ')};`);
      return source.function(`return ${source.constant(new Set(values))}.has(v);`);
    }
    case 'optional':
    case 'nullable': {
      const inner = generate(def.innerType, source);
      if (inner === UNSUPPORTED || checks.length) return UNSUPPORTED;
      return source.function(`return v === ${def.type === 'optional' ? 'undefined' : 'null'} || ${inner}(v);`);
    }
    case 'object': {
      const catchall = def.catchall === undefined ? null : defOf(def.catchall).type;
      if (checks.length || (catchall !== null && catchall !== 'unknown')) return UNSUPPORTED;
      const lines = ["if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;", 'let x;'];
      for (const [key, field] of Object.entries(def.shape as Record<string, unknown>)) {
        const check = generate(field, source);
        if (check === UNSUPPORTED) return UNSUPPORTED;
        const name = JSON.stringify(key);
        // Only own fields count: a name Object.prototype also answers (toString, __proto__…) is
        // read through hasOwn; any other name of a parsed record can only be its own.
        lines.push(key in Object.prototype ? `x = Object.hasOwn(v, ${name}) ? v[${name}] : undefined;` : `x = v[${name}];`);
        lines.push(defOf(field).type === 'optional' ? `if (x !== undefined && !${check}(x)) return false;` : `if (x === undefined || !${check}(x)) return false;`);
      }
      lines.push('return true;');
      return source.function(lines.join('\n'));
    }
    case 'array': {
      const element = generate(def.element, source);
      if (element === UNSUPPORTED) return UNSUPPORTED;
      const extra = lengthConditions(checks, () => UNSUPPORTED);
      if (extra === UNSUPPORTED) return UNSUPPORTED;
      return source.function(
        [`if (!Array.isArray(v)${extra.map((c) => ` || !(${c})`).join('')}) return false;`, `for (let i = 0; i < v.length; i++) if (!${element}(v[i])) return false;`, 'return true;'].join('\n'),
      );
    }
    case 'record': {
      const key = defOf(def.keyType);
      const value = generate(def.valueType, source);
      if (checks.length || key.type !== 'string' || (key.checks ?? []).length || value === UNSUPPORTED) return UNSUPPORTED;
      return source.function(
        [
          "if (typeof v !== 'object' || v === null || Array.isArray(v) || Object.getPrototypeOf(v) !== Object.prototype) return false;",
          `for (const x of Object.values(v)) if (!${value}(x)) return false;`,
          'return true;',
        ].join('\n'),
      );
    }
    case 'tuple': {
      if (checks.length || (def.rest !== null && def.rest !== undefined)) return UNSUPPORTED;
      const items: string[] = [];
      for (const item of def.items as unknown[]) {
        const check = generate(item, source);
        if (check === UNSUPPORTED) return UNSUPPORTED;
        items.push(check);
      }
      return source.function(returnAll(['Array.isArray(v)', `v.length === ${items.length}`, ...items.map((check, i) => `${check}(v[${i}])`)]));
    }
    case 'union': {
      if (checks.length) return UNSUPPORTED;
      const options: string[] = [];
      for (const option of def.options as unknown[]) {
        const check = generate(option, source);
        if (check === UNSUPPORTED) return UNSUPPORTED;
        options.push(check);
      }
      return source.function(options.length ? `return ${options.map((check) => `${check}(v)`).join(' || ')};` : 'return false;');
    }
    default:
      return UNSUPPORTED;
  }
}

/** The predicate of `schema`, or UNSUPPORTED (also where code cannot be generated at run time). */
function compile(schema: unknown): Check | typeof UNSUPPORTED {
  const source = new Source();
  const root = generate(schema, source);
  if (root === UNSUPPORTED) return UNSUPPORTED;
  try {
    return new Function('k', `'use strict';\n${source.functions.join('\n')}\nreturn ${root};`)(source.constants) as Check;
  } catch {
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
