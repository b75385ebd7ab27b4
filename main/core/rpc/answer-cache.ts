import { z } from 'zod';
import { maskDeep } from '../platform/util/credentials';
import { isSealed, seal } from '../platform/util/sealed';

type Checked = { success: true; data: unknown } | { success: false; error: z.ZodError };

/**
 * An answer checked against the contract and masked (credentials in store text), once per sealed
 * answer. A sealed answer is frozen all the way down, and checking and masking depend on nothing
 * but its content (the credential shapes are fixed in code), so what was made of it is exactly
 * what checking and masking it again would give. A producer whose inputs changed answers with a
 * new object, which is checked and masked afresh — of an object answer, only the fields that are
 * new objects: a field holding the very object an earlier answer of the operation held (the
 * Inboxes' clusters, while only its freshness moved) reuses that field's output.
 *
 * A service polled while a result is computed elsewhere (the Inboxes view while clusters grow)
 * then pays for the check and the masking once per version of its parts, not once per poll.
 */
export class AnswerCache {
  private readonly byAnswer = new WeakMap<object, { name: string; output: unknown }>();
  private readonly byPart = new WeakMap<object, { name: string; field: string; output: unknown }>();

  /** `answer` checked against `schema` and masked; kept (and sealed, so no caller can change what the next one gets) when the answer is sealed. */
  checked(name: string, schema: z.ZodType, answer: unknown): Checked {
    if (!isSealed(answer)) return maskedParse(schema, answer);
    const kept = this.byAnswer.get(answer);
    if (kept?.name === name) return { success: true, data: kept.output };
    const made = this.byFields(name, schema, answer);
    const result = made ? ({ success: true, data: made } as const) : maskedParse(schema, answer);
    if (!result.success || result.data === null || typeof result.data !== 'object') return result;
    this.byAnswer.set(answer, { name, output: seal(result.data) });
    return result;
  }

  /**
   * A sealed object answer checked field by field, each field that is an object kept by its
   * identity. Only where that is the very same check: a plain object schema (no refinement, no
   * catch-all) and an answer with exactly its fields, none undefined; and the same masking (a
   * search hit's `match` is masked with its `lesson`, so such an answer is masked whole). Null
   * when that does not hold or a field fails (the whole check then says where).
   */
  private byFields(name: string, schema: z.ZodType, answer: object): Record<string, unknown> | null {
    if (!(schema instanceof z.ZodObject) || schema._zod.def.catchall !== undefined || (schema._zod.def.checks?.length ?? 0) > 0) return null;
    if (Array.isArray(answer) || Object.hasOwn(answer, 'match')) return null;
    const shape = schema.shape as Record<string, z.ZodType>;
    const fields = Object.keys(shape);
    const record = answer as Record<string, unknown>;
    if (Object.keys(record).length !== fields.length || !fields.every((field) => Object.hasOwn(record, field) && record[field] !== undefined)) return null;
    const out: Record<string, unknown> = {};
    for (const field of fields) {
      const part = record[field];
      const isObject = typeof part === 'object' && part !== null;
      const kept = isObject ? this.byPart.get(part) : undefined;
      if (kept && kept.name === name && kept.field === field) {
        out[field] = kept.output;
        continue;
      }
      const checked = maskedParse(shape[field]!, part);
      if (!checked.success) return null;
      out[field] = checked.data;
      if (isObject && checked.data !== null && typeof checked.data === 'object') this.byPart.set(part, { name, field, output: seal(checked.data) });
    }
    return out;
  }
}

function maskedParse(schema: z.ZodType, value: unknown): Checked {
  const checked = schema.safeParse(value);
  return checked.success ? { success: true, data: maskDeep(checked.data) } : { success: false, error: checked.error };
}
