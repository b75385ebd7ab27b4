import path from 'node:path';
import type { IndexedEntryLine, IndexedLine, KnowledgeSource } from '../store-index/knowledge-source';
import { parseJsonObject } from '../store-index/sql';
import { STORES, storeDef } from '../stores/catalog';
import { parseFrontmatter } from '../stores/frontmatter';
import { strList, type RawEntry } from '../rules/entry-fields';
import { hotValue } from './cold-fields';
import { IndexedEntry, placeOf } from './indexed-entry';
import { withSharedParts } from './shared-values';
import type { EntryCollection, EntryTier, KnowledgeInputs, SkillRef, SourceEntry, SourceEvent } from './model-types';

/**
 * Turns the index's rows (read through KnowledgeSource) into the knowledge model's inputs. Every
 * entry is re-checked with its store's checker so it comes out exactly as the plugin reads it
 * (v1→v2 normalisation), together with the notes saying what that changed.
 */

/** Stores whose lines drive the effective counters. */
export const COUNTER_STORES = ['knowledge-events', 'knowledge-application', 'knowledge-counter-baseline'] as const;
/** Record stores the model reads besides entries and counters. */
export const SIDE_STORES = ['knowledge-retractions', 'skills-generated', 'skill-proposals', 'skill-retired-markers', 'skill-stale-markers'] as const;
/** Every store the knowledge model reads: a change anywhere else (swarm events, receipts…) leaves it as it is. */
export const MODEL_STORES: readonly string[] = [...STORES.filter((s) => s.table === 'entries').map((s) => s.key), ...COUNTER_STORES, ...SIDE_STORES];

/** Most entries need no normalisation: they share one empty list of notes. */
const NO_NOTES: SourceEntry['notes'] = Object.freeze([]) as unknown as SourceEntry['notes'];

/** A line's entry as the plugin reads it (v1→v2 normalisation applied), with the notes saying what that changed. */
function checked(storeKey: string, line: string): { value: RawEntry; notes: SourceEntry['notes'] } {
  const raw = parseJsonObject(line);
  return storeDef(storeKey)?.check(raw) ?? { value: raw, notes: [] };
}

/**
 * An entry as the model keeps it: repeated parts shared, and for lessons in force (the bulk of a
 * workspace) the parts only the detail pane shows left out (cold-fields.ts; `fullValue` reads them back).
 */
export function toSourceEntry(row: IndexedEntryLine): SourceEntry {
  const check = checked(row.storeKey, row.raw);
  // Every row read from SQLite brings its own copy of its file's names: one shared place per file keeps them once.
  const place = placeOf(row.fileId, row.tier as EntryTier, row.collection as EntryCollection, row.storeKey, row.path);
  return new IndexedEntry(row.rid, keptCold(place.collection) ? hotValue(check.value) : withSharedParts(check.value), place, row.line, check.notes.length ? check.notes : NO_NOTES);
}

/** Whether entries of this collection, read from the index, are kept without their cold parts. */
const keptCold = (collection: EntryCollection): boolean => collection === 'active';

/** The whole entry: its kept value, or when cold parts were left out of it, its line read back (`line` is called only then). */
export function fullValue(entry: SourceEntry, line: () => string): RawEntry {
  return entry instanceof IndexedEntry && keptCold(entry.collection) ? checked(entry.storeKey, line()).value : entry.value;
}

const toSourceEvent = (row: IndexedLine): SourceEvent => ({ value: parseJsonObject(row.raw), storeKey: row.storeKey, file: row.path, line: row.line });

/** The events that drive effective counters (small: FIFO-capped at 5000 lines each). */
export function loadCounterInputs(source: KnowledgeSource): Pick<KnowledgeInputs, 'knowledgeEvents' | 'applicationLog' | 'baseline'> {
  const baseline = source.records('knowledge-counter-baseline')[0];
  return {
    knowledgeEvents: source.events('knowledge-events').map(toSourceEvent),
    applicationLog: source.events('knowledge-application').map(toSourceEvent),
    baseline: baseline ? parseJsonObject(baseline.raw) : null,
  };
}

const slugOfMarker = (file: string) => path.basename(path.dirname(file));

function loadSkills(source: KnowledgeSource): SkillRef[] {
  const retired = new Set(source.records('skill-retired-markers').map((r) => slugOfMarker(r.path)));
  const stale = new Set(source.records('skill-stale-markers').map((r) => slugOfMarker(r.path)));
  const skills: SkillRef[] = [];
  for (const [storeKey, kind] of [
    ['skills-generated', 'active'],
    ['skill-proposals', 'proposal'],
  ] as const) {
    for (const record of source.records(storeKey)) {
      // The index keeps markdown either as the parsed record (JSON) or as the file text; accept both.
      const parsed = parseJsonObject(record.raw);
      const frontmatter =
        parsed.frontmatter && typeof parsed.frontmatter === 'object' ? (parsed.frontmatter as Record<string, unknown>) : (parseFrontmatter(record.raw).frontmatter ?? {});
      const slug = kind === 'active' ? slugOfMarker(record.path) : path.basename(record.path, '.md');
      const sourceIds = [...new Set([...strList(frontmatter.source_knowledge_ids), ...strList(frontmatter.generated_from_knowledge)])];
      skills.push({
        slug,
        path: record.path,
        kind,
        status: typeof frontmatter.status === 'string' ? frontmatter.status : null,
        retired: kind === 'active' && retired.has(slug),
        stale: kind === 'active' && stale.has(slug),
        sourceIds,
      });
    }
  }
  return skills;
}

/** Retractions and citing skills: small record stores, read whole. */
export function loadSideInputs(source: KnowledgeSource): Pick<KnowledgeInputs, 'retractions' | 'skills'> {
  return {
    retractions: source.records('knowledge-retractions').map((r) => parseJsonObject(r.raw)),
    skills: loadSkills(source),
  };
}

/** Entries by index row id (table pages asking for markers), checked like the model's. */
export function loadEntriesByRid(source: KnowledgeSource, rids: readonly number[]): SourceEntry[] {
  return source.entriesByRid(rids).map(toSourceEntry);
}
