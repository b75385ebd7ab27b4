import type { EffectiveOutcomes } from '../rules/counters';
import type { RawEntry } from '../rules/entry-fields';
import type { ExpiryMarker, QualityMarkers } from '../rules/lifecycle';
import type { KnowledgeThresholds } from '../rules/thresholds';
import type { EntryCollection, StoreTier } from '../stores/catalog';
import type { ReadList } from './chunked-list';

/**
 * The knowledge model's vocabulary: the records it is built from (filled by the index adapter,
 * `from-index.ts`) and what it derives per entry. Kept apart from `knowledge-model.ts` so the
 * parts the model is made of (counters, counterparts, event index, directive rows) import these
 * types without importing the model that imports them.
 */
/** The tier and collection of an entry are those of the store it was read from. */
export type EntryTier = StoreTier;
export type { EntryCollection };

export interface SourceEntry {
  /** The index row id (stable while the file is not rewritten). */
  rid: number;
  /**
   * The entry as the plugin reads it (v1→v2 normalisation applied). A lesson read from the index
   * is kept without the parts only the detail pane shows (cold-fields.ts): `fullValue` gives the whole one.
   */
  value: RawEntry;
  /**
   * The line exactly as written, when the entry was made with it (models of plain records). Entries
   * read from the index leave it out: a line is most of an entry's heap and only the detail pane
   * shows it, so it is read back from the store file on demand (`KnowledgeModel.lineOf`).
   */
  text?: string;
  tier: EntryTier;
  collection: EntryCollection;
  storeKey: string;
  file: string;
  line: number;
  /** The index's id of its file, when read from the index: file order is file id, then line. */
  fileId?: number;
  notes: { field: string; note: string }[];
}

export interface SourceEvent {
  value: Record<string, unknown>;
  storeKey: string;
  file: string;
  line: number;
}

export interface SkillRef {
  slug: string;
  path: string;
  kind: 'active' | 'proposal';
  status: string | null;
  retired: boolean;
  stale: boolean;
  sourceIds: string[];
}

export interface KnowledgeInputs {
  /** File order (file, then line). */
  entries: ReadList<SourceEntry>;
  /** `knowledge-events.jsonl` lines (file order). */
  knowledgeEvents: SourceEvent[];
  /** Legacy `knowledge-application.jsonl` lines (file order). */
  applicationLog: SourceEvent[];
  /** Parsed `knowledge-counter-baseline.json`, or null. */
  baseline: unknown;
  retractions: RawEntry[];
  skills: SkillRef[];
  /** Reads an entry's line back from its store (entries without `text`); throws when the file changed since. */
  readLine?: (entry: SourceEntry) => string;
}

export interface EntryMarkers {
  expiry: ExpiryMarker | null;
  quality: QualityMarkers;
  signal: number;
  shown: number;
  violationsInWindow: number;
  lastViolationAt: string | null;
}

export interface EventRef {
  kind: string;
  at: string | null;
  traceId: string | null;
  sessionId: string | null;
  phase: string | null;
  agent: string | null;
  reason: string | null;
  source: string | null;
  storeKey: string;
  file: string;
  line: number;
}

/** What a directive row is computed from (the model satisfies it; `directive-rows.ts` needs no more). */
export interface EntryFacts {
  readonly thresholds: KnowledgeThresholds;
  outcomes(entry: SourceEntry): EffectiveOutcomes;
  markers(entry: SourceEntry): EntryMarkers;
}
