import type { RawEntry } from '../rules/entry-fields';

/**
 * Parsed entries with their repeated parts shared. JSON.parse gives every entry its own copy of
 * values that recur across the store — the same tag lists, agent lists, project names, counters
 * (most lessons were shown a few times at most) — and within an entry the same timestamp two or
 * three times (created, updated, first confirmed). The model holds every entry, so those copies
 * were a good part of its heap. Shared parts are frozen: an entry is a value, never changed once
 * read (a write goes to the store and comes back as a new line).
 *
 * The result reads exactly like the parsed entry (same keys in the same order, equal values).
 * Tables are bounded: past `MAX_KEYS` distinct values a table starts over, which only loses sharing
 * (cold-fields.ts keeps its shared parts in the same kind of table).
 */
const MAX_KEYS = 50_000;

export class SharedTable<T> {
  private map = new Map<string, T>();

  of(key: string, make: () => T): T {
    let value = this.map.get(key);
    if (value === undefined) {
      if (this.map.size >= MAX_KEYS) this.map = new Map();
      this.map.set(key, (value = make()));
    }
    return value;
  }
}

/** Fields whose strings recur across entries (names, not prose). */
const NAME_FIELDS = new Set(['project_name', 'source_project', 'category', 'scope', 'status', 'tier', 'directive_priority', 'enforcement_mode']);
/** Fields holding short lists of names. */
const NAME_LIST_FIELDS = new Set(['tags', 'applies_to_agents', 'applies_to_tools']);
/** Fields holding objects of counts. */
const COUNT_FIELDS = new Set(['retrieval_outcomes']);
/** Lists of records whose names recur and whose timestamps repeat the entry's. */
const RECORD_LIST_FIELDS = new Set(['confirmed_by']);

/** V8 keeps shorter slices as copies. */
const MIN_SLICE = 13;

const names = new SharedTable<string>();
const nameLists = new SharedTable<readonly string[]>();
const counts = new SharedTable<Readonly<Record<string, unknown>>>();

const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');

/** A plain object of finite numbers (JSON keeps no -0 apart from 0, so such a record is not shared). */
function isCountRecord(value: unknown): value is Record<string, number> {
  if (!isPlainRecord(value)) return false;
  for (const v of Object.values(value)) if (typeof v !== 'number' || Object.is(v, -0)) return false;
  return true;
}

/** An object whose keys can be copied by assignment (`__proto__` would set the prototype instead). */
const isPlainRecord = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value) && !Object.prototype.hasOwnProperty.call(value, '__proto__');

/**
 * Equal strings within one entry become one string, and a string that repeats the start of the
 * lesson (the plugin's v1 migration writes a required action so) a slice of the lesson's string.
 */
class Local {
  private readonly seen = new Map<string, string>();
  constructor(private readonly lesson: string) {}

  of(text: string): string {
    const known = this.seen.get(text);
    if (known !== undefined) return known;
    const shared = text.length >= MIN_SLICE && text.length < this.lesson.length && this.lesson.startsWith(text) ? this.lesson.slice(0, text.length) : text;
    this.seen.set(text, shared);
    return shared;
  }
}

function sharedRecord(record: unknown, local: Local): unknown {
  if (!isPlainRecord(record)) return record;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    out[key] = typeof value === 'string' ? (NAME_FIELDS.has(key) ? names.of(value, () => value) : local.of(value)) : value;
  }
  return out;
}

function sharedField(key: string, value: unknown, local: Local): unknown {
  if (typeof value === 'string') return NAME_FIELDS.has(key) ? names.of(value, () => value) : local.of(value);
  if (NAME_LIST_FIELDS.has(key) && isStringList(value)) return nameLists.of(JSON.stringify(value), () => Object.freeze(value.map((v) => names.of(v, () => v))));
  if (COUNT_FIELDS.has(key) && isCountRecord(value)) return counts.of(JSON.stringify(Object.entries(value)), () => Object.freeze({ ...value }));
  if (RECORD_LIST_FIELDS.has(key) && Array.isArray(value)) return value.map((record) => sharedRecord(record, local));
  if (isStringList(value) && value.length > 0) return value.map((text) => local.of(text));
  return value;
}

/** The entry with its recurring parts shared (see above); keys and values read as they were. */
export function withSharedParts(value: RawEntry): RawEntry {
  if (!isPlainRecord(value)) return value;
  const local = new Local(typeof value.lesson === 'string' ? value.lesson : '');
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = sharedField(key, value[key], local);
  return out;
}
