import type { RawEntry } from '../rules/entry-fields';
import { SharedTable } from './shared-values';

/**
 * The parts of a lesson only the detail pane (and the curator's entry lookup) shows, left out of
 * the entry the model keeps and read back from the store line on demand (`fullValue` in
 * from-index.ts). The model holds every lesson: a confirmation's timestamp, unique to it, kept
 * its record and list unique too (about 150 bytes a lesson, a sixth of the model's heap). With
 * the timestamps left out, a lesson's confirmations (phase numbers, project names) are one frozen
 * list shared with every lesson confirmed alike.
 *
 * Only the confirmations timeline reads `confirmed_at`; every rule the model runs (maturity gate,
 * promotion, injection blocks) counts records, phases and projects, which the kept list has as
 * they were. Lists that lost something are known (`isTrimmed`), so a reader that needs the whole
 * entry knows when to read its line.
 */
const COLD_KEYS: ReadonlySet<string> = new Set(['confirmed_at']);

const lists = new SharedTable<readonly Readonly<Record<string, unknown>>[]>();
const trimmed = new WeakSet<object>();

/** A value two records can share by its JSON text (JSON keeps no -0 apart from 0). */
const isScalar = (value: unknown): boolean => value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && !Object.is(value, -0));

/** A record of scalars whose keys can be copied by assignment (`__proto__` would set the prototype instead). */
const isFlatRecord = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value) && !Object.prototype.hasOwnProperty.call(value, '__proto__') && Object.values(value).every(isScalar);

/** The confirmations without their cold keys, shared; null when there is nothing to leave out (the list is kept as it is). */
function hotConfirmations(list: unknown): readonly Readonly<Record<string, unknown>>[] | null {
  if (!Array.isArray(list) || list.length === 0 || !list.every(isFlatRecord)) return null;
  if (!list.some((record) => Object.keys(record).some((key) => COLD_KEYS.has(key)))) return null;
  const hot = list.map((record) => {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(record)) if (!COLD_KEYS.has(key)) out[key] = record[key];
    return out;
  });
  return lists.of(JSON.stringify(hot.map((record) => Object.entries(record))), () => {
    const shared = Object.freeze(hot.map((record) => Object.freeze(record)));
    trimmed.add(shared);
    return shared;
  });
}

/**
 * Leaves the cold parts out of `value`, in place: `value` must be the caller's own fresh object
 * (withSharedParts' result), never an entry another reader holds.
 */
export function leaveOutColdParts(value: RawEntry): RawEntry {
  const hot = hotConfirmations(value.confirmed_by);
  if (hot) (value as Record<string, unknown>).confirmed_by = hot;
  return value;
}

/** Whether parts of this entry were left out (its whole value is then its line's). */
export const isTrimmed = (value: RawEntry): boolean => typeof value.confirmed_by === 'object' && value.confirmed_by !== null && trimmed.has(value.confirmed_by);
