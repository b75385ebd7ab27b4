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

interface ReceiptRow {
  seq: number | null;
  gen: number | null;
  type: string | null;
  ts: string | null;
  trace_id: string | null;
  entry_id: string | null;
  session_id: string | null;
  phase: string | null;
  outcome: string | null;
  source: string | null;
}

export function receiptRow(record: StoreRecord): ReceiptRow {
  const v = record.value;
  return {
    seq: int(v.seq),
    gen: int(v.gen),
    type: str(v.type),
    ts: first(v.ts, v.archived_at, v.captured_at),
    trace_id: str(v.trace_id),
    entry_id: str(v.entry_id),
    session_id: str(v.session_id),
    phase: str(v.phase),
    outcome: str(v.outcome),
    source: str(v.source),
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
