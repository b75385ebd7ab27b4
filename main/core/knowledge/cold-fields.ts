import type { RawEntry } from '../rules/entry-fields';
import { SharedTable, withSharedParts } from './shared-values';

/**
 * The parts of a lesson no view but the detail pane (whole entry, confirmations timeline) reads,
 * left out of the lesson the model keeps and read back from its store line on demand
 * (`fullValue` in from-index.ts). The model holds every lesson, so each part costs its bytes
 * 100k times over. A confirmation's timestamp, unique to it, kept its record and list unique
 * too (about 150 bytes a lesson); without it, a lesson's confirmations (phase numbers, project
 * names) are one frozen list shared with every lesson confirmed alike. Only the timeline reads
 * `confirmed_at`; every rule the model runs (maturity gate, promotion, injection blocks) counts
 * records, phases and projects, which the kept list has as they were. (Leaving out top-level
 * fields no view reads, such as `schema_version`, was measured too: 4–6 bytes a lesson, since
 * V8 sizes an object's property store in steps; not worth a field a reader could miss.)
 *
 * A reader of a kept lesson that needs one of these parts must take `fullValue`.
 */
const COLD_CONFIRMATION_KEYS: ReadonlySet<string> = new Set(['confirmed_at']);

const lists = new SharedTable<readonly Readonly<Record<string, unknown>>[]>();

/** A value two records can share by its JSON text (JSON keeps no -0 apart from 0). */
const isScalar = (value: unknown): boolean => value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && !Object.is(value, -0));

/** A record of scalars whose keys can be copied by assignment (`__proto__` would set the prototype instead). */
const isFlatRecord = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value) && !Object.prototype.hasOwnProperty.call(value, '__proto__') && Object.values(value).every(isScalar);

/** The confirmations without their cold keys, shared; null when there is nothing to leave out (the list is kept as it is). */
function hotConfirmations(list: unknown): readonly Readonly<Record<string, unknown>>[] | null {
  if (!Array.isArray(list) || list.length === 0 || !list.every(isFlatRecord)) return null;
  if (!list.some((record) => Object.keys(record).some((key) => COLD_CONFIRMATION_KEYS.has(key)))) return null;
  const hot = list.map((record) => {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(record)) if (!COLD_CONFIRMATION_KEYS.has(key)) out[key] = record[key];
    return out;
  });
  return lists.of(JSON.stringify(hot.map((record) => Object.entries(record))), () => Object.freeze(hot.map((record) => Object.freeze(record))));
}

/** A lesson as the model keeps it: its repeated parts shared (shared-values.ts) and its cold parts left out. */
export function hotValue(value: RawEntry): RawEntry {
  const out = withSharedParts(value);
  const hot = hotConfirmations(out.confirmed_by);
  // `out` is withSharedParts' own fresh object: assigning to a key it has keeps its shape.
  if (hot) (out as Record<string, unknown>).confirmed_by = hot;
  return out;
}
