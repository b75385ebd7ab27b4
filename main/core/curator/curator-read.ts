import path from 'node:path';
import type { CuratorOverview, Recommendation } from '../../../shared/contract/skills';
import { asRecord, list, n, s } from '../skills/skill-logs';
import { defectLines, projectStoreFiles, readViewDocument, readViewRecords, type StoreScope } from '../stores/view-reads';

/** What the curator panel needs to know about the entry a recommendation names. */
export interface EntryState {
  tier: string;
  collection: string;
  value: Record<string, unknown>;
  /** Kinds of the entry's events in knowledge-events.jsonl (e.g. `archived`). */
  eventKinds: string[];
}
export type EntryLookup = (id: string) => EntryState | null;

const SEVERITY_ORDER: Record<string, number> = { critical: 0, error: 1, warning: 2, info: 3 };

/**
 * Whether the plugin already applied a recommendation (it does so itself at phase_complete,
 * docs/plugin-formats.md#lifecycle), read from the named entry's current state and events. The evidence sentence
 * says what was looked at, so "not applied" is never a guess presented as fact.
 */
function recommendationState(action: string, lesson: string, entry: EntryState | null, synthetic: boolean): Pick<Recommendation, 'applied' | 'appliedEvidence'> {
  if (synthetic) return { applied: 'applied', appliedEvidence: 'a record of a hive promotion run the plugin already made (counts in the reason)' };
  if (!entry) return { applied: 'unknown', appliedEvidence: 'the entry is in no store now (removed, evicted or never written)' };
  const v = entry.value;
  const status = s(v.status) ?? 'candidate';
  switch (action) {
    case 'promote':
      return v.hive_eligible === true || status === 'promoted'
        ? { applied: 'applied', appliedEvidence: `the entry is ${v.hive_eligible === true ? 'hive_eligible' : 'promoted'}` }
        : { applied: 'not_applied', appliedEvidence: `the entry is ${status} and not hive_eligible` };
    case 'archive':
      if (status === 'archived') return { applied: 'applied', appliedEvidence: 'the entry is archived' };
      if (entry.eventKinds.includes('archived')) return { applied: 'applied', appliedEvidence: 'an archived event names the entry' };
      return { applied: 'not_applied', appliedEvidence: `the entry is ${status}; no archived event names it` };
    case 'flag_contradiction': {
      const tag = list(v.tags).find((t) => t.startsWith('contradiction:'));
      return tag ? { applied: 'applied', appliedEvidence: `the entry carries the tag ${JSON.stringify(tag)}` } : { applied: 'not_applied', appliedEvidence: 'the entry has no contradiction: tag' };
    }
    case 'rewrite':
      return s(v.lesson) === lesson ? { applied: 'applied', appliedEvidence: 'the entry’s lesson is the rewritten text' } : { applied: 'not_applied', appliedEvidence: 'the entry’s lesson differs from the rewrite' };
    default:
      return { applied: 'unknown', appliedEvidence: `unknown action ${JSON.stringify(action)}` };
  }
}

function promotionCounts(reason: string): Record<string, number> | null {
  try {
    const parsed = JSON.parse(reason);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
    const out: Record<string, number> = {};
    for (const [k, v] of Object.entries(parsed)) if (typeof v === 'number') out[k] = v;
    return Object.keys(out).length ? out : null;
  } catch {
    return null;
  }
}

async function readSummary(scope: StoreScope, lookup: EntryLookup): Promise<CuratorOverview['summary']> {
  const read = await readViewDocument('curator-summary', path.join(scope.projectDir, '.swarm', 'curator-summary.json'), scope);
  const empty = { present: read.present, problem: read.problem, sessionId: null, lastUpdated: null, lastPhaseCovered: null, digests: [], compliance: [], recommendations: [] };
  if (!read.present || read.problem) return empty;
  const r = asRecord(read.value);
  if (r.schema_version !== 1) return { ...empty, problem: `schema_version ${JSON.stringify(r.schema_version ?? null)}: the plugin reads this file only when it is 1` };
  const arr = (v: unknown) => (Array.isArray(v) ? v.map(asRecord) : []);
  const compliance = arr(r.compliance_observations)
    .map((c) => ({ phase: n(c.phase), timestamp: s(c.timestamp), type: s(c.type) ?? 'unknown', severity: s(c.severity) ?? 'info', description: s(c.description) ?? '' }))
    .sort((a, b) => (SEVERITY_ORDER[a.severity] ?? 9) - (SEVERITY_ORDER[b.severity] ?? 9) || (b.phase ?? 0) - (a.phase ?? 0));
  const recommendations = arr(r.knowledge_recommendations).map((rec, index): Recommendation => {
    const entryId = s(rec.entry_id);
    const reason = s(rec.reason) ?? '';
    const counts = entryId ? null : promotionCounts(reason);
    const state = entryId ? lookup(entryId) : null;
    const lesson = s(rec.lesson) ?? '';
    const action = s(rec.action) ?? 'unknown';
    return {
      index,
      action,
      entryId,
      lesson,
      reason,
      category: s(rec.category),
      confidence: n(rec.confidence),
      promotionCounts: counts,
      entry: state ? { tier: state.tier, status: `${s(state.value.status) ?? 'candidate'}${state.collection === 'active' ? '' : ` (${state.collection})`}`, lesson: s(state.value.lesson) ?? '', confidence: n(state.value.confidence), tags: list(state.value.tags), hiveEligible: state.value.hive_eligible === true } : null,
      ...recommendationState(action, lesson, state, !entryId && action === 'promote' && counts !== null),
    };
  });
  return {
    present: true,
    problem: null,
    sessionId: s(r.session_id),
    lastUpdated: s(r.last_updated),
    lastPhaseCovered: n(r.last_phase_covered),
    digests: arr(r.phase_digests)
      .map((d) => ({ phase: n(d.phase), timestamp: s(d.timestamp), summary: s(d.summary) ?? '', agents: list(d.agents_used), tasksCompleted: n(d.tasks_completed), tasksTotal: n(d.tasks_total), keyDecisions: list(d.key_decisions), blockersResolved: list(d.blockers_resolved) }))
      .sort((a, b) => (b.phase ?? 0) - (a.phase ?? 0)),
    compliance,
    recommendations,
  };
}

const phaseOrder = (a: string, b: string) => a.localeCompare(b, undefined, { numeric: true });

/** Curator summary, knowledge-application findings, drift reports and the insight queue (docs/plugin-formats.md#curator). Read-only. */
export async function curatorOverview(scope: StoreScope, lookup: EntryLookup): Promise<CuratorOverview> {
  const { projectDir } = scope;
  const swarm = path.join(projectDir, '.swarm');
  const problems: string[] = [];
  const findings: CuratorOverview['findings'] = [];
  const findingFiles = projectStoreFiles('curator-findings', projectDir).map((f) => ({ file: f.path, phase: path.basename(path.dirname(f.path)) }));
  for (const { file, phase } of findingFiles.sort((a, b) => phaseOrder(a.phase, b.phase))) {
    const read = await readViewDocument('curator-findings', file, scope);
    if (!read.present) continue;
    const relFile = `.swarm/evidence/${phase}/curator-findings.json`;
    if (read.problem) {
      problems.push(`${relFile}: ${read.problem}`);
      continue;
    }
    for (const f of (Array.isArray(asRecord(read.value).findings) ? (asRecord(read.value).findings as unknown[]) : []).map(asRecord)) {
      const id = s(f.knowledge_id) ?? '';
      findings.push({ phase, file: relFile, knowledgeId: id, expected: s(f.expected_behavior) ?? '', observed: s(f.observed_behavior) ?? '', verdict: s(f.verdict) ?? 'unknown', evidenceRefs: list(f.evidence_refs), entryFound: id !== '' && lookup(id) !== null });
    }
  }
  const drift: CuratorOverview['drift'] = [];
  for (const file of projectStoreFiles('drift-reports', projectDir)) {
    const name = path.basename(file.path);
    if (!/^drift-report-phase-\d+\.json$/.test(name)) continue;
    const read = await readViewDocument('drift-reports', file.path, scope);
    const r = asRecord(read.value);
    const fields = Object.entries(r)
      .filter(([key]) => !['alignment', 'drift_score'].includes(key))
      .map(([key, value]) => ({ key, value: (typeof value === 'string' ? value : JSON.stringify(value, null, 1)).slice(0, 2000) }));
    drift.push({ file: `.swarm/${name}`, phase: n(r.phase) ?? Number(/(\d+)/.exec(name)?.[1]), alignment: s(r.alignment), driftScore: n(r.drift_score), fields, problem: read.problem });
  }
  drift.sort((a, b) => (b.phase ?? 0) - (a.phase ?? 0));
  const insightFile = path.join(swarm, 'insight-candidates.jsonl');
  const insightRead = await readViewRecords('insight-candidates', insightFile, scope);
  // A defective line is a problem the panel shows, never an exception (the Stores view lists it too).
  problems.push(...defectLines(projectDir, insightFile, insightRead));
  const insights = insightRead.records.map(({ line, value }) => {
    const src = asRecord(value.source);
    return { line, lesson: s(value.lesson) ?? '', category: s(value.category), tags: list(value.tags), sourceKind: s(src.kind), taskId: s(src.task_id), agent: s(src.agent), outcome: s(src.outcome), createdAt: s(value.created_at) };
  });
  return { summary: await readSummary(scope, lookup), findings, drift, insights, problems };
}
