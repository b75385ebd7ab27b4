import { seededRandom } from '../../../../testing/stores/synthetic-stores';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isCovered, surelyValid } from './fast-check';
import { timestamp } from './common';

/** Every construct the predicate covers, with the checks the stores' schemas use. */
const ZOO: Record<string, z.ZodType> = {
  object: z.object({
    id: z.string().min(1),
    short: z.string().max(3).optional(),
    hex: z.string().regex(/^[0-9a-f]{4}$/),
    ts: timestamp,
    seq: z.number().int().min(1),
    score: z.number().nonnegative().max(1).optional(),
    ratio: z.number().optional(),
    flag: z.boolean().optional(),
    kind: z.enum(['a', 'b']),
    version: z.literal(2),
    note: z.string().nullable(),
    maybe: z.string().nullable().optional(),
    tags: z.array(z.string()),
    pair: z.tuple([z.number().int(), z.number().int()]).optional(),
    counts: z.record(z.string(), z.number()).optional(),
    either: z.union([z.string(), z.number().int()]).optional(),
    nested: z.object({ x: z.string(), y: z.enum(['p', 'q']).optional() }).optional(),
    list: z.array(z.object({ n: z.number() })).min(1).max(2).optional(),
    anything: z.unknown(),
    empty: z.object({}).nullable().optional(),
  }),
  loose: z.looseObject({ a: z.string() }),
};


const STRINGS = ['', 'a', 'b', 'p', 'abcd', '0a9f', '0A9F', '2025-05-28T12:00:00.000Z', '2025-05-28', 'not a date', 'é日本'];
const NUMBERS = [0, -0, 1, 2, -1, 0.5, 1.5, 3, 2 ** 53, 2 ** 53 - 1, -(2 ** 60)];

/** A value shaped by the schema most of the time (so valid ones are common), anything else otherwise. */
function sample(schema: z.ZodType, random: () => number, depth = 0): unknown {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  if (random() < 0.04 || depth > 6) return pick<unknown>([null, true, 'x', 1, 1.25, [], {}, ['a'], { a: 'a' }]);
  const def = (schema as unknown as { _zod: { def: Record<string, any> } })._zod.def;
  switch (def.type) {
    case 'string':
      return pick(STRINGS);
    case 'number':
      return pick(NUMBERS);
    case 'boolean':
      return random() < 0.5;
    case 'enum':
      return random() < 0.9 ? pick(Object.values(def.entries)) : 'c';
    case 'literal':
      return random() < 0.9 ? def.values[0] : 3;
    case 'optional':
      return random() < 0.3 ? undefined : sample(def.innerType, random, depth + 1);
    case 'nullable':
      return random() < 0.3 ? null : sample(def.innerType, random, depth + 1);
    case 'array':
      return Array.from({ length: Math.floor(random() * 4) }, () => sample(def.element, random, depth + 1));
    case 'tuple':
      return Array.from({ length: random() < 0.8 ? def.items.length : Math.floor(random() * 4) }, (_, i) => sample(def.items[i] ?? def.items[0], random, depth + 1));
    case 'record':
      return Object.fromEntries(Array.from({ length: Math.floor(random() * 3) }, (_, i) => [`k${i}`, sample(def.valueType, random, depth + 1)]));
    case 'union':
      return sample(pick(def.options), random, depth + 1);
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(def.shape as Record<string, z.ZodType>)) {
        if (random() < 0.03) continue;
        const value = sample(field, random, depth + 1);
        if (value !== undefined) out[key] = value;
      }
      if (random() < 0.2) out.extra = 'unknown keys are allowed';
      return out;
    }
    default:
      return pick<unknown>([null, 'x', 1, {}]);
  }
}

describe('fast record check', () => {
  it('covers every construct of the zoo', () => {
    for (const schema of Object.values(ZOO)) expect(isCovered(schema)).toBe(true);
  });

  /** Samples a value of `schema`, checks the fast check agrees with zod on it, and says whether zod accepted it. */
  const agreesWithZod = (schema: z.ZodType, random: () => number, name: string): boolean => {
    // Through JSON, as records are read: no undefined inside.
    const value = JSON.parse(JSON.stringify(sample(schema, random)) ?? 'null') as unknown;
    const zod = schema.safeParse(value).success;
    const fast = surelyValid(schema, value);
    if (fast !== zod) expect({ name, value, zod, fast }).toEqual({ name, value, zod, fast: zod });
    return zod;
  };

  it('never calls valid what zod rejects, and calls valid what zod accepts', () => {
    const random = seededRandom(21);
    let valid = 0;
    let invalid = 0;
    for (const [name, schema] of Object.entries(ZOO)) {
      for (let i = 0; i < 6_000; i++) {
        if (agreesWithZod(schema, random, name)) valid++;
        else invalid++;
      }
    }
    // Both sides were exercised (a generator producing only one kind would prove nothing).
    expect(valid).toBeGreaterThan(1_000);
    expect(invalid).toBeGreaterThan(1_000);
  });

  it('agrees with zod on each construct alone, where valid values are common', () => {
    // The whole zoo object is rarely valid (every field must be): each field alone, as a value
    // and inside a one-field object, puts every construct's checks on both sides of the line.
    const random = seededRandom(22);
    const shape = (ZOO.object as unknown as { _zod: { def: { shape: Record<string, z.ZodType> } } })._zod.def.shape;
    for (const [key, field] of Object.entries(shape)) {
      let valid = 0;
      let invalid = 0;
      for (const schema of [field, z.object({ [key]: field })]) {
        for (let i = 0; i < 400; i++) {
          if (agreesWithZod(schema, random, key)) valid++;
          else invalid++;
        }
      }
      expect(valid, key).toBeGreaterThan(40);
      if (!['anything', 'maybe'].includes(key)) expect(invalid, key).toBeGreaterThan(0);
    }
  });

  it('leaves to zod what it does not know', () => {
    const refined = z.object({ a: z.string().refine((s) => s.length > 1) });
    expect(isCovered(refined)).toBe(false);
    expect(surelyValid(refined, { a: 'x' })).toBe(false);
    expect(isCovered(z.string().email())).toBe(false);
  });
});
