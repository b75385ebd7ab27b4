import { DAY, HOUR, iso } from './clock';
import type { Counters, EntryDraft } from './entry-model';
import { DEMO_IDS as ID } from './ids';
import type { Rng } from './rng';
import { type CounterRollup, emptyRollup } from './rollup';
import type { Story, Terminal, Trace } from './story-types';

type Rec = Record<string, unknown>;

export interface Tombstone {
  entryId: string;
  atMs: number;
  actor: string;
  reason: string;
  mode: 'archive' | 'quarantine' | 'purge';
  previousStatus: string;
  evidence?: string;
  /** Emit a skill-stale-batch right after (generated skills citing the entry). */
  skill?: { slug: string; retired: boolean };
}

interface KnowledgeLogs {
  events: Rec[];
  application: Rec[];
  baseline: Record<string, CounterRollup>;
  shown: Record<string, string[]>;
  unackCriticals: Rec[];
}

/** Older, folded history of the story's entries (what the 5000-line FIFO evicted into the baseline). */
const STORY_HISTORY: Record<string, Partial<CounterRollup> & { violationsDaysAgo?: number[] }> = {
  [ID.panReleased]: { shown_count: 40, acknowledged_count: 9, applied_explicit_count: 7, ignored_count: 1, violated_count: 2, n_a_count: 3, succeeded_after_shown_count: 5, failed_after_shown_count: 1, violationsDaysAgo: [41, 45] },
  [ID.scopeEscalated]: { shown_count: 6, acknowledged_count: 4, applied_explicit_count: 4, succeeded_after_shown_count: 2 },
  [ID.openObligation]: { shown_count: 8, acknowledged_count: 6, applied_explicit_count: 6, succeeded_after_shown_count: 3 },
  [ID.secretsRemediated]: { shown_count: 10, acknowledged_count: 7, applied_explicit_count: 7, violated_count: 1, n_a_count: 1, violationsDaysAgo: [60] },
  [ID.expiringStaleness]: { shown_count: 12, acknowledged_count: 9, applied_explicit_count: 9, n_a_count: 2, succeeded_after_shown_count: 4 },
  [ID.expiringBlocking]: { shown_count: 9, acknowledged_count: 6, applied_explicit_count: 5, violated_count: 2, violationsDaysAgo: [51, 53] },
  [ID.expiringNodePin]: { shown_count: 7, acknowledged_count: 6, applied_explicit_count: 6, succeeded_after_shown_count: 2 },
  [ID.migrationLockViolated]: { shown_count: 5, acknowledged_count: 3, applied_explicit_count: 3 },
  [ID.idempotencyKeys]: { shown_count: 6, acknowledged_count: 5, applied_explicit_count: 5, succeeded_after_shown_count: 2 },
  [ID.focusedTests]: { shown_count: 18, acknowledged_count: 16, applied_explicit_count: 15, succeeded_after_shown_count: 6 },
  [ID.sqliteContradicted]: { shown_count: 2, acknowledged_count: 1, applied_explicit_count: 1 },
  [ID.webhookRetry]: { shown_count: 4, acknowledged_count: 3, applied_explicit_count: 2, ignored_count: 1 },
};

function baselineFromCounters(c: Counters, rng: Rng, updatedAt: string, now: number): CounterRollup {
  const r: CounterRollup = { ...emptyRollup(), ...c, n_a_count: rng.int(0, 2) };
  if (c.applied_explicit_count > 0) r.last_applied_at = updatedAt;
  if (c.acknowledged_count > 0) r.last_acknowledged_at = updatedAt;
  for (let i = 0; i < Math.min(c.violated_count, 10); i++) r.violation_timestamps.push(iso(now - rng.int(25, 120) * DAY));
  r.violation_timestamps.sort().reverse();
  return r;
}

function historyRollup(spec: (typeof STORY_HISTORY)[string], now: number): CounterRollup {
  const { violationsDaysAgo = [], ...counts } = spec;
  const r: CounterRollup = { ...emptyRollup(), ...counts };
  r.violation_timestamps = violationsDaysAgo.map((d) => iso(now - d * DAY));
  if (r.applied_explicit_count > 0) r.last_applied_at = iso(now - 24 * DAY);
  if (r.acknowledged_count > 0) r.last_acknowledged_at = iso(now - 24 * DAY);
  return r;
}

const APPLICATION_RESULT = { applied: 'applied', ignored: 'ignored', violated: 'violated', n_a: 'acknowledged', contradicted: 'ignored' } as const;

/**
 * The legacy logs as the snapshot plugin would have left them for the story: the diagnostic
 * `knowledge-events.jsonl`, the application log, the folded baseline, `.knowledge-shown.json`
 * and `unacknowledged-criticals.jsonl`. V2 terminals map to the writer that produced them.
 */
export function buildKnowledgeLogs(story: Story, rng: Rng, swarm: EntryDraft[], tombstones: Tombstone[], now: number): KnowledgeLogs {
  const events: Rec[] = [];
  const application: Rec[] = [];
  const byId = new Map(swarm.map((e) => [e.id, e]));
  const traceById = new Map(story.traces.map((t) => [t.traceId, t]));
  const event = (atMs: number, body: Rec) => events.push({ schema_version: 1, ...body, event_id: rng.uuid(), timestamp: iso(atMs) });

  for (const trace of story.traces) {
    const ranks: Record<string, number> = {};
    const scores: Record<string, number> = {};
    trace.entries.forEach((e, i) => {
      ranks[e.entryId] = i + 1;
      scores[e.entryId] = e.score;
    });
    const body: Rec = { type: 'retrieved', trace_id: trace.traceId, session_id: trace.sessionId, phase: trace.phase };
    if (trace.taskId) body.task_id = trace.taskId;
    Object.assign(body, { agent: trace.agent, query: trace.query, retrieval_mode: trace.mode, result_ids: trace.entries.map((e) => e.entryId), ranks, scores });
    if (trace.mode === 'manual') body.score_breakdown = { synonyms_expanded: ['backoff', 'retry'], synonym_matches: { [trace.entries[0]?.entryId ?? '']: ['retry'] } };
    event(trace.atMs, body);
    if (trace.mode === 'auto_injection') {
      for (const e of trace.entries) {
        const line: Rec = { timestamp: iso(trace.atMs), phase: trace.phase };
        if (trace.taskId) line.taskId = trace.taskId;
        Object.assign(line, { action: 'architect_injection', targetAgent: 'architect', knowledgeId: e.entryId, result: 'shown' });
        const skill = byId.get(e.entryId)?.generated_skill_path;
        if (skill) line.generatedSkillPath = skill;
        line.sessionId = trace.sessionId;
        application.push(line);
      }
    }
  }

  for (const t of story.terminals) emitTerminal(t, traceById.get(t.traceId) as Trace, event, application, rng);

  for (const close of story.closes) {
    const shownIds = new Set(story.traces.filter((t) => t.phase === close.phase && t.mode === 'auto_injection').flatMap((t) => t.entries.map((e) => e.entryId)));
    for (const id of shownIds) {
      const verb = close.outcome === 'success' ? 'succeeded' : close.outcome === 'failure' ? 'failed' : 'partially succeeded';
      event(close.atMs + 1000, { type: 'outcome', knowledge_id: id, phase: close.phase, outcome: close.outcome, evidence_summary: `${close.phase} ${verb} after entry was shown` });
    }
  }
  for (const esc of story.escalations) {
    event(esc.atMs, { type: 'escalation', entry_id: esc.entryId, from: esc.from, to: esc.to, reason: 'repeat_violation', enforcement_mode: 'enforce' });
  }
  for (const tomb of tombstones) {
    const body: Rec = { type: 'archived', entry_id: tomb.entryId, tier: 'swarm', actor: tomb.actor, reason: tomb.reason, mode: tomb.mode };
    if (tomb.evidence) body.evidence = tomb.evidence;
    body.previous_status = tomb.previousStatus;
    event(tomb.atMs, body);
    if (tomb.skill) {
      event(tomb.atMs + 1000, { type: 'skill-stale-batch', skillIds: [tomb.skill.slug], archivedIds: [tomb.entryId], retiredCount: tomb.skill.retired ? 1 : 0, staleCount: tomb.skill.retired ? 0 : 1 });
    }
  }
  events.sort((a, b) => String(a.timestamp).localeCompare(String(b.timestamp)));
  // Lines written before the envelope gained schema_version lack it (the reader must cope).
  for (const e of events.slice(0, 4)) delete e.schema_version;

  for (let i = 0; i < 8; i++) {
    const entry = rng.pick(swarm.filter((e) => e.shape === 'v2' && e.status !== 'archived'));
    application.push({ timestamp: iso(now - rng.int(30, 90) * DAY), knowledgeId: entry.id, result: rng.pick(['applied', 'ignored', 'applied', 'violated']), action: 'knowledge_ack', tool: 'knowledge_ack', reason: 'recorded with the retired knowledge_ack tool' });
  }
  application.sort((a, b) => String(a.timestamp).localeCompare(String(b.timestamp)));

  const baseline: Record<string, CounterRollup> = {};
  const inStory = new Set(story.traces.flatMap((t) => t.entries.map((e) => e.entryId)));
  for (const entry of swarm) {
    if (entry.shape !== 'v2') continue;
    const history = STORY_HISTORY[entry.id];
    if (history) baseline[entry.id] = historyRollup(history, now);
    else if (entry.counters.shown_count > 0 && (inStory.has(entry.id) || rng.chance(0.45))) baseline[entry.id] = baselineFromCounters(entry.counters, rng, entry.updated_at, now);
  }

  const phase5Shown = [...new Set(story.traces.filter((t) => t.phase === 'Phase 5' && t.mode === 'auto_injection').flatMap((t) => t.entries.map((e) => e.entryId)))];
  const unackCriticals: Rec[] = [
    { timestamp: iso(now - 51 * DAY), knowledge_id: ID.expiringBlocking, agent: 'coder', session_id: 'ses_0Xk3Pq8Rt1Lm', task_id: '3.2', reason: 'unacknowledged' },
    { timestamp: iso(now - 41 * DAY - 3 * HOUR), knowledge_id: ID.panReleased, agent: 'coder', session_id: 'ses_0Yl4Qr9Su2Mn', reason: 'unacknowledged' },
  ];
  for (const t of story.terminals) {
    if (t.source !== 'delegate' || t.reason !== 'unacknowledged') continue;
    const trace = traceById.get(t.traceId) as Trace;
    const line: Rec = { timestamp: iso(t.atMs), knowledge_id: t.entryId, agent: t.agent, session_id: trace.sessionId };
    if (trace.taskId) line.task_id = trace.taskId;
    line.reason = 'unacknowledged';
    unackCriticals.push(line);
  }
  return { events, application, baseline, shown: { 'Phase 5': phase5Shown }, unackCriticals };
}

function emitTerminal(t: Terminal, trace: Trace, event: (atMs: number, body: Rec) => void, application: Rec[], rng: Rng): void {
  if (t.legacy === 'none') return;
  if (t.legacy === 'application') {
    if (t.source === 'unknown' || (t.source === 'migration' && rng.chance(0.3))) {
      application.push({ timestamp: iso(t.atMs), knowledgeId: t.entryId, result: APPLICATION_RESULT[t.outcome], action: 'knowledge_ack', tool: 'knowledge_ack', ...(t.reason ? { reason: t.reason } : {}) });
      return;
    }
    const line: Rec = { timestamp: iso(t.atMs), phase: trace.phase };
    if (trace.taskId) line.taskId = trace.taskId;
    line.knowledgeId = t.entryId;
    line.result = APPLICATION_RESULT[t.outcome];
    if (t.reason) line.reason = t.reason.slice(0, 280);
    line.sessionId = trace.sessionId;
    application.push(line);
    return;
  }
  if (t.legacy === 'override') {
    event(t.atMs, { type: 'override', trace_id: '', knowledge_id: t.entryId, session_id: trace.sessionId, agent: 'architect', source: 'reviewer', reason: (t.reason ?? '').slice(0, 280) });
    return;
  }
  // `events`: the delegate ack collector uses a fresh trace id and no source; the reviewer parser and
  // knowledge_receipt keep the retrieval trace.
  const isDelegate = t.legacySource === undefined && t.agent !== 'architect';
  const traceId = isDelegate ? rng.uuid() : trace.traceId;
  const type = t.outcome;
  if (isDelegate && t.outcome !== 'violated') {
    event(t.atMs - 1000, { type: 'acknowledged', trace_id: traceId, knowledge_id: t.entryId, session_id: trace.sessionId, ...(trace.taskId ? { task_id: trace.taskId } : {}), agent: t.agent });
  }
  const body: Rec = { type, trace_id: traceId, knowledge_id: t.entryId, session_id: trace.sessionId };
  if (trace.taskId) body.task_id = trace.taskId;
  if (!isDelegate) body.phase = trace.phase;
  body.agent = t.agent;
  if (t.reason) body.reason = t.reason.slice(0, 280);
  if (t.legacySource) body.source = t.legacySource;
  if (t.predicateCheck) body.predicate_check = t.predicateCheck;
  if (t.evidence) body.evidence = pruneEvidence(t.evidence);
  event(t.atMs, body);
}

function pruneEvidence(e: { files: string[]; commands: string[]; tests: string[]; summary: string }): Rec {
  const out: Rec = {};
  if (e.files.length) out.files = e.files;
  if (e.commands.length) out.commands = e.commands;
  if (e.tests.length) out.tests = e.tests;
  out.summary = e.summary;
  return out;
}
