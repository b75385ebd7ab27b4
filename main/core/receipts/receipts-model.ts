import type { z } from 'zod';
import type { EscapeHatches, FunnelRow, Integrity, Obligation, PhaseSummary, SourceStatus, Trace, TracesInput, TracesPage } from '../../../shared/contract/receipts';
import { buildCounterRollups } from '../rules/counters';
import { type DirectiveFacts, effectiveAcknowledged } from './directive-facts';
import { buildFunnel, FUNNEL_NOTES } from './funnel';
import { denialsByEntry, gateWarningsByEntry, type LegacyLog, type LegacySources } from './legacy-sources';
import { buildLegacyTraces } from './legacy-traces';
import { buildObligations, unresolvedAtClose } from './obligations';
import { buildPhaseSummaries } from './phase-summaries';
import { buildV2Traces, settle, type V2Phases } from './trace-model';

/**
 * Everything the receipts view shows, built once per verification from the verified journal
 * prefix, the archive and the legacy logs. Queries are pure reads of this model.
 */

type Rec = Record<string, unknown>;

interface ModelInput {
  integrity: Integrity;
  journalRecords: readonly Rec[];
  archiveRecords: readonly Rec[];
  legacy: LegacySources;
  hatches: EscapeHatches;
  /** The knowledge records of the entries the receipts name (see `receiptEntryIds`); absent: nothing is derived. */
  facts?: ReadonlyMap<string, DirectiveFacts>;
}

export interface ReceiptsModel {
  integrity: Integrity;
  hatches: EscapeHatches;
  traces: readonly Trace[];
  traceFacets: TracesPage['facets'];
  phases: V2Phases;
  funnel: FunnelRow[];
  funnelNotes: string[];
  denials: ReadonlyMap<string, number>;
  gateWarnings: ReadonlyMap<string, number>;
  facts: ReadonlyMap<string, DirectiveFacts>;
  sources: SourceStatus[];
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** Every entry id the journal, archive and legacy logs name: the entries whose knowledge records the model needs. */
export function receiptEntryIds(input: Pick<ModelInput, 'journalRecords' | 'archiveRecords' | 'legacy'>): string[] {
  const ids = new Set<string>();
  const add = (value: unknown) => typeof value === 'string' && value && ids.add(value);
  const visitEntries = (list: unknown) => {
    for (const e of Array.isArray(list) ? (list as Rec[]) : []) add(e?.entry_id);
  };
  for (const r of [...input.journalRecords, ...input.archiveRecords]) {
    add(r.entry_id);
    visitEntries(r.entries);
    for (const t of Array.isArray(r.traces) ? (r.traces as Rec[]) : []) visitEntries(t?.entries);
  }
  for (const { value } of input.legacy.events.lines) {
    add(value.knowledge_id);
    for (const id of strings(value.result_ids)) add(id);
  }
  for (const { value } of input.legacy.application.lines) add(value.knowledgeId);
  for (const { value } of input.legacy.unacknowledged.lines) add(value.knowledge_id);
  for (const { value } of input.legacy.gateEvents.lines) for (const id of [...strings(value.unacknowledged_critical_ids), ...strings(value.entry_ids)]) add(id);
  return [...ids];
}

/**
 * Legacy displays carry no priority and no obligation. Take both from the entry's knowledge record
 * (critical = ack required, as `critical_requires_ack` defaults), flagged "derived from legacy logs".
 */
function deriveFromKnowledge(traces: readonly Trace[], facts: ReadonlyMap<string, DirectiveFacts>): void {
  for (const trace of traces) {
    if (trace.origin === 'v2' || trace.origin === 'archive') continue;
    for (const entry of trace.entries) {
      const priority = facts.get(entry.entryId)?.priority;
      if (entry.priority !== null || !priority) continue;
      entry.priority = priority;
      entry.derived = true;
      if (trace.displayedSetKnown && entry.obligation === null) entry.obligation = priority === 'critical' ? 'ack_required' : 'advisory';
    }
  }
}

export function buildReceiptsModel(input: ModelInput): ReceiptsModel {
  const v2 = buildV2Traces(input.journalRecords, input.archiveRecords);
  const legacy = buildLegacyTraces(v2, input.legacy);
  const traces = [...v2.traces, ...legacy.traces, ...v2.unlinked, ...legacy.unlinked];
  const facts = input.facts ?? new Map<string, DirectiveFacts>();
  /** Entries whose priority a V2 membership recorded (everything else is derived from the knowledge entry). */
  const recordedPriority = new Set(traces.flatMap((t) => t.entries.filter((e) => e.priority !== null).map((e) => e.entryId)));
  deriveFromKnowledge(traces, facts);
  for (const trace of traces) for (const entry of trace.entries) settle(entry);
  const rollups = buildCounterRollups({
    baseline: input.legacy.baseline,
    events: input.legacy.events.lines.map((l) => l.value),
    applicationLog: input.legacy.application.lines.map((l) => l.value),
  });
  const distinct = (values: (string | null)[]) => [...new Set(values.filter((v): v is string => !!v))].sort();
  return {
    integrity: input.integrity,
    hatches: input.hatches,
    traces,
    traceFacets: { phases: distinct(traces.map((t) => t.phase)), agents: distinct(traces.map((t) => t.agent)), sessions: distinct(traces.map((t) => t.sessionId)) },
    phases: { ...v2.phases, legacyOutcomes: legacy.outcomes },
    funnel: buildFunnel({
      traces,
      phases: v2.phases,
      legacyOutcomes: legacy.outcomes,
      legacyAcknowledged: legacy.acknowledged,
      application: legacy.application,
      retrievedIds: legacy.retrievedIds,
    }).map((row) => {
      const fact = facts.get(row.entryId);
      const derive = !recordedPriority.has(row.entryId) && !!fact?.priority;
      return { ...row, priority: derive ? (fact?.priority ?? null) : row.priority, priorityDerived: derive, enforcement: fact?.enforcement ?? null, acknowledged: effectiveAcknowledged(fact, rollups.get(row.entryId)) };
    }),
    funnelNotes: FUNNEL_NOTES,
    denials: denialsByEntry(input.legacy.gateEvents),
    gateWarnings: gateWarningsByEntry(input.legacy.gateEvents),
    facts,
    sources: buildSources(input.integrity, input.legacy),
  };
}

function matches(trace: Trace, filter: z.output<typeof TracesInput>): boolean {
  if (filter.phase && trace.phase !== filter.phase) return false;
  if (filter.agent && trace.agent !== filter.agent) return false;
  if (filter.session && trace.sessionId !== filter.session) return false;
  if (filter.origin && trace.origin !== filter.origin) return false;
  const entryFilter = filter.entry?.toLowerCase();
  const outcome = filter.outcome;
  if (!entryFilter && !outcome) return true;
  return trace.entries.some((e) => {
    if (entryFilter && !e.entryId.toLowerCase().includes(entryFilter)) return false;
    if (!outcome) return true;
    if (outcome === 'audit') return e.audit.length > 0;
    // A release is nonterminal: an entry the gate released and the agent answered later still matches.
    if (outcome === 'released') return e.releases.length > 0;
    if (outcome === 'open' || outcome === 'unanswered') return e.status === outcome;
    return e.terminals.some((t) => t.outcome === outcome);
  });
}

/** Newest displays first; traces without a display time (unlinked answers) last. */
export function tracesPage(model: ReceiptsModel, filter: z.output<typeof TracesInput>): TracesPage {
  const selected = model.traces.filter((t) => matches(t, filter));
  selected.sort((a, b) => (b.displayedAt ?? '').localeCompare(a.displayedAt ?? '') || (b.seq ?? 0) - (a.seq ?? 0));
  return { total: selected.length, offset: filter.offset, traces: selected.slice(filter.offset, filter.offset + filter.limit), facets: model.traceFacets };
}

export function obligationsOf(model: ReceiptsModel, filter: { phase?: string | undefined; status: 'open' | 'released' | 'answered' | 'all' }, nowMs: number) {
  const all = buildObligations(model.traces, model.hatches, { denials: model.denials, gateWarnings: model.gateWarnings, facts: model.facts }, unresolvedAtClose(model.phases.closes), nowMs).filter((o) => !filter.phase || o.phase === filter.phase);
  const count = (status: Obligation['status']) => all.filter((o) => o.status === status).length;
  return {
    now: new Date(nowMs).toISOString(),
    escapeHatches: model.hatches,
    counts: { open: count('open'), released: count('released'), answered: count('answered'), releasedThenAnswered: all.filter((o) => o.answeredAfterRelease).length },
    obligations: filter.status === 'all' ? all : all.filter((o) => o.status === filter.status),
  };
}

export function phasesOf(model: ReceiptsModel, nowMs: number): { now: string; escapeHatches: EscapeHatches; phases: PhaseSummary[] } {
  return { now: new Date(nowMs).toISOString(), escapeHatches: model.hatches, phases: buildPhaseSummaries(model.traces, model.phases, nowMs) };
}

export function funnelOf(model: ReceiptsModel, filter: { entry?: string | undefined; offset: number; limit: number }) {
  const needle = filter.entry?.toLowerCase();
  const rows = needle ? model.funnel.filter((r) => r.entryId.toLowerCase().includes(needle)) : model.funnel;
  return { total: rows.length, rows: rows.slice(filter.offset, filter.offset + filter.limit), notes: model.funnelNotes };
}

const LEGACY_LABELS = {
  'knowledge-application': 'Legacy application log (knowledge-application.jsonl)',
  'knowledge-events': 'Knowledge events (knowledge-events.jsonl)',
  'unacknowledged-criticals': 'Unacknowledged criticals (unacknowledged-criticals.jsonl)',
  'swarm-events': 'Gate events in .swarm/events.jsonl',
} as const;

const LEGACY_NOTES: Record<keyof typeof LEGACY_LABELS, string[]> = {
  'knowledge-application': ['Has no n_a result: an N/A acknowledgement is stored as "acknowledged".', 'FIFO of 5000 lines; older lines are gone.'],
  'knowledge-events': ['The released plugin’s receipt authority (FIFO of 5000 lines, folded into knowledge-counter-baseline.json).'],
  'unacknowledged-criticals': ['Audit-only: a delegate never acknowledged a critical directive.'],
  'swarm-events': ['Only the knowledge_application_gate_* lines are read here (warn, deny and the proposed *_clear events).'],
};

/** `1 record`, `2 records`: the core's summaries agree their nouns with the count, as the views do (renderer state/format.ts plural). */
const counted = (n: number, one: string): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : `${one}s`}`;

function legacySource(id: keyof typeof LEGACY_LABELS, log: LegacyLog, linkRedirected: boolean): SourceStatus {
  const read = log.read;
  const present = read.status === 'ok';
  const first = read.defects[0];
  const summary =
    read.status === 'missing'
      ? 'absent (normal when the plugin has not written it yet)'
      : !present
        ? (read.message ?? read.status)
        : `${counted(read.records, 'record')}${read.defectCount ? `, ${counted(read.defectCount, 'defect')}` : ''}${read.pendingTail ? ', last line still being written' : ''}`;
  return {
    id,
    label: LEGACY_LABELS[id],
    path: log.file,
    present,
    linkRedirected,
    bytes: read.identity?.size ?? null,
    lines: read.lines,
    records: id === 'swarm-events' ? log.lines.length : read.records,
    defects: read.defectCount,
    firstDefect: first ? { line: first.line, offset: first.offset, kind: first.kind, reason: first.reason } : null,
    summary: id === 'swarm-events' && present ? `${counted(log.lines.length, 'gate line')} of ${counted(read.records, 'event')}` : summary,
    notes: LEGACY_NOTES[id],
  };
}

function buildSources(integrity: Integrity, legacy: LegacySources): SourceStatus[] {
  const v2: SourceStatus[] = integrity.files.map((f) => ({
    id: f.kind,
    label: `V2 ${f.kind} (${f.name})`,
    path: f.path,
    present: f.state !== 'absent',
    linkRedirected: false,
    bytes: f.bytes,
    lines: f.lines,
    records: f.records,
    defects: f.break ? 1 : 0,
    firstDefect: f.break ? { line: f.break.line, offset: f.break.byteOffset, kind: f.break.defect, reason: f.break.message } : null,
    summary: f.reason,
    notes: f.state === 'absent' ? ['Missing V2 files are normal: the released plugin does not write them yet.'] : ['Never link-redirected; read-only.'],
  }));
  return [
    ...v2,
    legacySource('knowledge-application', legacy.application, legacy.linkRedirected),
    legacySource('knowledge-events', legacy.events, legacy.linkRedirected),
    legacySource('unacknowledged-criticals', legacy.unacknowledged, false),
    legacySource('swarm-events', legacy.gateEvents, false),
  ];
}
