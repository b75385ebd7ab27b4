import type { EntryCollection, StoreTier } from '../stores/catalog';
import { DEFAULT_PRIORITY } from '../stores/schemas/knowledge';
import type { StoreRecord } from '../stores/read-store-file';

/**
 * Column values extracted from a record. Every extractor tolerates wrong types: a column only
 * gets a value of its own type (a `"confidence": "high"` gives NULL), the raw line keeps the rest.
 */
const str = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const first = (...values: unknown[]): string | null => {
  for (const v of values) {
    const s = str(v);
    if (s !== null) return s;
  }
  return null;
};

export interface EntryRow {
  id: string | null;
  tier: StoreTier;
  collection: EntryCollection;
  status: string | null;
  category: string | null;
  scope: string | null;
  priority: string | null;
  confidence: number | null;
  project: string | null;
  created_at: string | null;
  updated_at: string | null;
  phases_alive: number | null;
  max_phases: number | null;
  encounter_score: number | null;
  shown_count: number | null;
  lesson: string | null;
  tags: string[];
  triggers: string;
  actions: string;
}

/** The trigger and action texts the full-text index holds for an entry (of its normalised value). */
export function entrySearchTexts(v: Record<string, unknown>): { triggers: string; actions: string } {
  return {
    triggers: strings(v.triggers).join('\n'),
    actions: [...strings(v.required_actions), ...strings(v.forbidden_actions), ...strings(v.verification_checks)].join('\n'),
  };
}

export function entryRow(record: StoreRecord, tier: StoreTier, collection: EntryCollection): EntryRow {
  const v = record.value;
  const outcomes = (v.retrieval_outcomes ?? {}) as Record<string, unknown>;
  const isLesson = collection !== 'rejected';
  return {
    id: record.id,
    tier,
    collection,
    status: isLesson ? str(v.status) : 'rejected',
    category: str(v.category),
    scope: str(v.scope),
    priority: isLesson ? (str(v.directive_priority) ?? DEFAULT_PRIORITY) : null,
    confidence: num(v.confidence),
    project: first(v.project_name, v.source_project),
    created_at: first(v.created_at, v.rejected_at),
    updated_at: first(v.updated_at, v.quarantined_at, v.rejected_at, v.created_at),
    phases_alive: int(v.phases_alive) ?? (isLesson ? 0 : null),
    max_phases: int(v.max_phases),
    encounter_score: num(v.encounter_score),
    shown_count: num(outcomes.shown_count),
    lesson: str(v.lesson),
    tags: [...new Set(strings(v.tags))],
    ...entrySearchTexts(v),
  };
}

interface EventRow {
  kind: string | null;
  ts: string | null;
  session_id: string | null;
  agent: string | null;
  tool: string | null;
  knowledge_id: string | null;
  trace_id: string | null;
  phase: string | null;
}

/** Events of events.jsonl (`event`/`type`), knowledge events (`type`), the application log (`result`), unacknowledged criticals. */
export function eventRow(record: StoreRecord, storeKey: string): EventRow {
  const v = record.value;
  const kind = storeKey === 'unacknowledged-criticals' ? 'unacknowledged_critical' : first(v.event, v.type, v.result);
  return {
    kind,
    ts: first(v.timestamp, v.ts),
    session_id: first(v.sessionID, v.session_id, v.sessionId),
    agent: first(v.agent, v.targetAgent),
    tool: first(v.tool),
    knowledge_id: first(v.knowledge_id, v.knowledgeId, v.entry_id),
    trace_id: first(v.trace_id),
    phase: first(v.phase),
  };
}

/** The receipt columns queries read (store-queries.ts: a receipt's id is its trace id, its kind its type). */
interface ReceiptRow {
  type: string | null;
  ts: string | null;
  trace_id: string | null;
}

export function receiptRow(record: StoreRecord): ReceiptRow {
  const v = record.value;
  return {
    type: str(v.type),
    ts: first(v.ts, v.archived_at, v.captured_at),
    trace_id: str(v.trace_id),
  };
}

interface GenericRow {
  rec_id: string | null;
  kind: string | null;
  ts: string | null;
}

export function genericRow(record: StoreRecord): GenericRow {
  const v = record.value;
  const fm = (v.frontmatter ?? {}) as Record<string, unknown>;
  return {
    rec_id: record.id ?? first(v.slug),
    kind: first(v.type, v.action, v.event, v.operation, fm.status),
    ts: first(v.timestamp, v.created_at, v.recorded_at, v.rejected_at, v.last_updated, v.retiredAt, v.date, fm.generated_at, v.built_at),
  };
}

const digit = (s: string, i: number): number => s.charCodeAt(i) - 48;
const digits = (s: string, from: number, to: number): number => {
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = digit(s, i);
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
};

/**
 * Epoch ms of a record's timestamp, as Date.parse gives it (null when it gives NaN). The form
 * the plugin writes, `YYYY-MM-DDTHH:MM:SS.sssZ`, is read from its digits (Date.parse costs about
 * a microsecond, a tenth of a million-line ingest's budget per line); anything else, and any
 * date whose day might not exist in its month, goes through Date.parse.
 */
export function epochMs(ts: string | null): number | null {
  if (ts === null) return null;
  if (ts.length === 24 && ts.charCodeAt(4) === 45 && ts.charCodeAt(7) === 45 && ts.charCodeAt(10) === 84 && ts.charCodeAt(13) === 58 && ts.charCodeAt(16) === 58 && ts.charCodeAt(19) === 46 && ts.charCodeAt(23) === 90) {
    const year = digits(ts, 0, 4);
    const month = digits(ts, 5, 7);
    const day = digits(ts, 8, 10);
    const hour = digits(ts, 11, 13);
    const minute = digits(ts, 14, 16);
    const second = digits(ts, 17, 19);
    const ms = digits(ts, 20, 23);
    // Date.UTC reads years 0–99 as 1900–1999: those go through Date.parse.
    if (year >= 1000 && month >= 1 && month <= 12 && day >= 1 && day <= 28 && hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59 && second >= 0 && second <= 59 && ms >= 0) {
      return Date.UTC(year, month - 1, day, hour, minute, second, ms);
    }
  }
  const ms = Date.parse(ts);
  return Number.isNaN(ms) ? null : ms;
}
