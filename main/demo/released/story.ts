import { DAY, HOUR, MINUTE, iso } from '../clock';
import { type EntryDraft, type Priority, computeConfidence, zeroCounters } from '../entry-model';
import type { LessonDealer } from '../lesson-corpus';
import type { Rng } from '../rng';
import { RELEASED_IDS as ID, RELEASED_PROJECT } from './ids';

/**
 * The released demo's knowledge and what the 7.103.2 plugin logged about it: architect injections
 * (a `retrieved` event in knowledge-events.jsonl plus a `shown` line per id in
 * knowledge-application.jsonl), chat-marker answers (application log: applied / ignored / violated,
 * N/A stored as `acknowledged`), `knowledge_receipt` answers (events without `source`), phase
 * outcomes, one escalation, a delegate's missing ack, and gate warnings for `.swarm/events.jsonl`.
 * Never an `acknowledged` event, never a V2 receipt, never a logged denial.
 */

type Rec = Record<string, unknown>;

interface ReleasedStory {
  entries: EntryDraft[];
  /** The hotfix worktree's entries that existed before it was linked (its orphaned local file). */
  orphans: EntryDraft[];
  events: Rec[];
  application: Rec[];
  unacknowledged: Rec[];
  /** `.swarm/events.jsonl` lines per worktree (main first). */
  gateLines: { main: Rec[]; hotfix: Rec[] };
  /** `.knowledge-shown.json` of the main worktree: the ids shown in the open phase. */
  shownThisPhase: Record<string, string[]>;
  linkedAtMs: number;
}

interface Notable {
  id: string;
  lesson: string;
  category: EntryDraft['category'];
  tags: string[];
  priority: Priority;
  fields: Partial<EntryDraft>;
}

function notables(now: number): Notable[] {
  return [
    {
      id: ID.criticalEnforced, priority: 'critical', category: 'process', tags: ['migrations', 'staging'],
      lesson: 'Take a fresh snapshot of the shared staging database before running any schema migration against it.',
      fields: {
        required_actions: ['snapshot the staging database before migrating'], forbidden_actions: ['run migrations against staging without a snapshot'],
        applies_to_agents: ['coder', 'architect'], applies_to_tools: ['bash'], enforcement_mode: 'enforce',
        escalation_history: [{ from: 'high', to: 'critical', reason: 'repeat_violation', at: iso(now - 9 * DAY) }],
      },
    },
    {
      id: ID.criticalUnanswered, priority: 'critical', category: 'security', tags: ['secrets', 'config'],
      lesson: 'Never write warehouse API credentials into committed config files; read them from the secret store at start-up.',
      fields: { forbidden_actions: ['commit credentials to config files'], required_actions: ['read credentials from the secret store'], applies_to_agents: ['coder'], enforcement_mode: 'warn' },
    },
    {
      id: ID.criticalAcknowledged, priority: 'critical', category: 'testing', tags: ['inventory', 'concurrency'],
      lesson: 'Stock reservation changes need the concurrent-reservation test suite to pass before a task is marked complete.',
      fields: { verification_checks: ['concurrent reservation suite passes'], applies_to_agents: ['coder', 'test_engineer'] },
    },
    {
      id: ID.criticalApplied, priority: 'critical', category: 'architecture', tags: ['events', 'outbox'],
      lesson: 'Publish inventory change events through the transactional outbox table, never directly from request handlers.',
      fields: { required_actions: ['write events to the outbox table in the same transaction'], applies_to_agents: ['coder'] },
    },
    {
      id: ID.highViolated, priority: 'high', category: 'performance', tags: ['sql', 'indexes'],
      lesson: 'Add an index migration together with any new query that filters the stock_movements table by warehouse.',
      fields: { required_actions: ['add the index in the same migration'], applies_to_agents: ['coder'] },
    },
    {
      id: ID.mediumReceipt, priority: 'medium', category: 'tooling', tags: ['lint'],
      lesson: 'Run the SQL linter on new migration files before asking for review; it catches missing down-migrations.',
      fields: { verification_checks: ['sql lint passes on new migrations'], applies_to_agents: ['coder', 'reviewer'] },
    },
    {
      id: ID.shownOnlyInApplicationLog, priority: 'high', category: 'integration', tags: ['erp', 'retries'],
      lesson: 'Retry ERP stock sync calls with jittered backoff and stop after five attempts, then raise an alert.',
      fields: { required_actions: ['use jittered backoff capped at five attempts'], applies_to_agents: ['coder'] },
    },
  ];
}

function draft(id: string, lesson: string, fields: Partial<EntryDraft>, createdMs: number): EntryDraft {
  return {
    id, tier: 'swarm', lesson, category: 'process', tags: [], scope: 'global', confidence: 0.5, status: 'candidate', confirmed_by: [],
    created_at: iso(createdMs), updated_at: iso(createdMs), shape: 'v2', counters: zeroCounters(), legacy: { applied_count: 0, succeeded_after_count: 0, failed_after_count: 0 },
    project_name: RELEASED_PROJECT, phases_alive: 0, ...fields,
  };
}

const PHASES = [1, 2, 3, 4] as const;
/** Phase 4 closed half a day before the anchor (its last injections are a day old); Phase 5 is under way. */
export const PHASE_4_CLOSED_MS = (now: number) => now - 12 * HOUR;
const HIGH_RISK = ['save_plan', 'update_task_status', 'phase_complete', 'task'] as const;

export function buildReleasedStory(rng: Rng, dealer: LessonDealer, now: number): ReleasedStory {
  const linkedAtMs = now - 30 * DAY;
  const phaseStart = (p: number) => now - (12 - 3 * (p - 1)) * DAY; // phases 1–4 start 12, 9, 6, 3 days ago
  const entries: EntryDraft[] = notables(now).map((n, i) =>
    draft(n.id, n.lesson, { ...n.fields, category: n.category, tags: n.tags, directive_priority: n.priority, status: i < 2 ? 'established' : 'candidate', confidence: computeConfidence(i < 2 ? 3 : 1, false),
      confirmed_by: (i < 2 ? [1, 2, 3] : [1]).map((p) => ({ phase_number: p, confirmed_at: iso(phaseStart(p) + 2 * HOUR), project_name: RELEASED_PROJECT })) }, now - (40 + i) * DAY),
  );
  entries.push(draft(ID.escalationSource, 'Take a fresh snapshot of the shared staging database before running schema migrations on it.', {
    category: 'process', tags: ['migrations', 'staging'], status: 'archived', directive_priority: 'high', applies_to_agents: ['coder'], required_actions: ['snapshot the staging database before migrating'],
    updated_at: iso(now - 8 * DAY),
  }, now - 70 * DAY));
  for (let i = 0; i < 36; i++) {
    const m = dealer.next();
    const createdMs = now - rng.int(2 * DAY, 90 * DAY);
    const phases = rng.sample([1, 2, 3], rng.int(0, 3)).sort();
    const e = draft(rng.uuid(), m.lesson, {
      category: m.category, tags: m.tags, scope: m.scope, auto_generated: rng.chance(0.6), shape: rng.chance(0.3) ? 'v1' : 'v2',
      status: phases.length >= 3 ? 'established' : rng.chance(0.08) ? 'archived' : 'candidate',
      confirmed_by: phases.map((p) => ({ phase_number: p, confirmed_at: iso(Math.max(createdMs, phaseStart(p)) + HOUR), project_name: RELEASED_PROJECT })),
    }, createdMs);
    e.confidence = computeConfidence(phases.length, e.auto_generated === true);
    if (rng.chance(0.4)) {
      e.required_actions = [m.action];
      e.applies_to_agents = m.agents.slice(0, 1);
      e.directive_priority = rng.pick(['low', 'medium', 'medium', 'high'] as const);
    }
    entries.push(e);
  }
  entries.sort((a, b) => a.created_at.localeCompare(b.created_at));

  const events: Rec[] = [];
  const application: Rec[] = [];
  const unacknowledged: Rec[] = [];
  const event = (type: string, atMs: number, body: Rec) => events.push({ schema_version: 1, type, ...body, event_id: rng.uuid(), timestamp: iso(atMs) });
  const fillers = entries.filter((e) => e.shape === 'v2' && e.status !== 'archived' && !Object.values(ID).includes(e.id as never));

  // Before knowledge-events.jsonl existed (plugin < v2 receipts): shown lines and one violation pair.
  for (let i = 0; i < 6; i++) application.push({ timestamp: iso(now - (60 - i * 4) * DAY), phase: 'Phase 1', knowledgeId: ID.shownOnlyInApplicationLog, result: 'shown', sessionId: `ses_${rng.base62(12)}` });
  for (const ago of [21, 17]) application.push({ timestamp: iso(now - ago * DAY), phase: 'Phase 1', knowledgeId: ID.escalationSource, result: 'violated', reason: 'migrated staging without a snapshot', sessionId: `ses_${rng.base62(12)}` });
  event('escalation', now - 9 * DAY, { entry_id: ID.criticalEnforced, from: 'high', to: 'critical', reason: 'repeat_violation', enforcement_mode: 'enforce' });

  // How often each notable directive is injected, over 24 architect injections in phases 1–4.
  const showCount: Record<string, number> = { [ID.criticalEnforced]: 20, [ID.criticalUnanswered]: 15, [ID.criticalAcknowledged]: 8, [ID.criticalApplied]: 10, [ID.highViolated]: 12, [ID.mediumReceipt]: 9 };
  const injections = 24;
  const slots = new Map<string, Set<number>>();
  for (const [id, count] of Object.entries(showCount)) slots.set(id, new Set(rng.sample([...Array(injections).keys()], count)));
  const sessions = PHASES.map(() => [`ses_${rng.base62(12)}`, `ses_${rng.base62(12)}`]);
  const shownByPhase = new Map<number, Set<string>>();
  const answers = { n_a: 5, applied: 7, highApplied: 3, highViolated: 2, receiptApplied: 3, receiptIgnored: 2 };
  const gateMain: Rec[] = [];
  const gateHotfix: Rec[] = [];

  for (let i = 0; i < injections; i++) {
    const phase = PHASES[Math.min(3, Math.floor(i / 6))] as number;
    const atMs = phaseStart(phase) + (i % 6) * 10 * HOUR + rng.int(0, 50) * MINUTE;
    const sessionId = (sessions[phase - 1] as string[])[i % 2] as string;
    const ids = [...slots.entries()].filter(([, set]) => set.has(i)).map(([id]) => id);
    ids.push(...rng.sample(fillers, rng.int(1, 3)).map((e) => e.id));
    const traceId = rng.uuid();
    event('retrieved', atMs, {
      trace_id: traceId, session_id: sessionId, phase: `Phase ${phase}`, agent: 'architect', query: rng.pick(['stock reservation', 'staging migration', 'warehouse sync', 'outbox events']),
      retrieval_mode: 'auto_injection', result_ids: ids, ranks: Object.fromEntries(ids.map((id, r) => [id, r + 1])), scores: Object.fromEntries(ids.map((id) => [id, rng.float(0.4, 1.6)])),
    });
    for (const id of ids) application.push({ timestamp: iso(atMs), phase: `Phase ${phase}`, knowledgeId: id, result: 'shown', sessionId });
    const shown = shownByPhase.get(phase) ?? new Set<string>();
    for (const id of ids) shown.add(id);
    shownByPhase.set(phase, shown);

    const later = (minutes: number) => iso(atMs + minutes * MINUTE);
    const marker = (id: string, result: string, minutes: number, reason?: string) =>
      application.push({ timestamp: later(minutes), phase: `Phase ${phase}`, knowledgeId: id, result, ...(reason ? { reason } : {}), sessionId });
    if (ids.includes(ID.criticalAcknowledged) && answers.n_a-- > 0) marker(ID.criticalAcknowledged, 'acknowledged', 6, 'no reservation code touched in this task');
    if (ids.includes(ID.criticalApplied) && answers.applied-- > 0) marker(ID.criticalApplied, 'applied', 12);
    if (ids.includes(ID.highViolated)) {
      if (answers.highViolated > 0 && phase >= 2) (answers.highViolated--, marker(ID.highViolated, 'violated', 25, 'query added without its index'));
      else if (answers.highApplied-- > 0) marker(ID.highViolated, 'applied', 20);
    }
    if (ids.includes(ID.mediumReceipt)) {
      if (answers.receiptApplied-- > 0) event('applied', atMs + 40 * MINUTE, { trace_id: traceId, knowledge_id: ID.mediumReceipt, session_id: sessionId, phase: `Phase ${phase}`, agent: 'architect', reason: 'ran sqlfluff on the new migration', evidence: { summary: 'verified_by=reviewer' } });
      else if (answers.receiptIgnored-- > 0) event('ignored', atMs + 40 * MINUTE, { trace_id: traceId, knowledge_id: ID.mediumReceipt, session_id: sessionId, phase: `Phase ${phase}`, agent: 'architect', reason: 'not_relevant: no migration in this task' });
    }
    // The architect reaches a high-risk tool with both unanswered criticals pending (warn mode).
    const pending = [ID.criticalEnforced, ID.criticalUnanswered].filter((id) => ids.includes(id));
    if (pending.length && i % 4 === 1) {
      const line = { timestamp: later(55), event: 'knowledge_application_gate_warn', tool: HIGH_RISK[gateMain.length % HIGH_RISK.length], agent: 'architect', sessionID: sessionId, unacknowledged_critical_ids: pending };
      if (gateMain.length < 4) gateMain.push(line);
      else if (gateHotfix.length < 2) gateHotfix.push({ ...line, sessionID: `ses_${rng.base62(12)}` });
    }
  }

  // A delegate (coder) never acknowledged criticalApplied in one session: the collector logs it twice.
  const delegateAt = phaseStart(3) + 5 * HOUR;
  const delegateSession = (sessions[2] as string[])[0] as string;
  event('violated', delegateAt, { trace_id: rng.uuid(), knowledge_id: ID.criticalApplied, session_id: delegateSession, agent: 'coder', reason: 'unacknowledged' });
  unacknowledged.push({ timestamp: iso(delegateAt), knowledge_id: ID.criticalApplied, agent: 'coder', session_id: delegateSession, task_id: '3.2', reason: 'unacknowledged' });

  // Phases 1–4 completed: one outcome per id listed in .knowledge-shown.json at that time (Phase 4 twelve hours ago).
  for (const phase of PHASES) {
    const outcome = phase === 2 ? 'failure' : 'success';
    const closeMs = phase === 4 ? PHASE_4_CLOSED_MS(now) : phaseStart(phase + 1) - HOUR;
    for (const id of [...(shownByPhase.get(phase) ?? [])].sort()) {
      event('outcome', closeMs, { knowledge_id: id, phase: `Phase ${phase}`, outcome, evidence_summary: `phase ${phase} ${outcome === 'success' ? 'completed' : 'completed with failed tasks'}` });
    }
  }
  // Phase 5, the current one: one injection of an ordinary lesson so far, no outcome yet.
  const phase5Session = `ses_${rng.base62(12)}`;
  const phase5Ids = [(fillers[0] as EntryDraft).id];
  const phase5At = now - 6 * HOUR;
  event('retrieved', phase5At, {
    trace_id: rng.uuid(), session_id: phase5Session, phase: 'Phase 5', agent: 'architect', query: 'stock reservation',
    retrieval_mode: 'auto_injection', result_ids: phase5Ids, ranks: { [phase5Ids[0] as string]: 1 }, scores: { [phase5Ids[0] as string]: 0.9 },
  });
  for (const id of phase5Ids) application.push({ timestamp: iso(phase5At), phase: 'Phase 5', knowledgeId: id, result: 'shown', sessionId: phase5Session });
  gateMain.push({ timestamp: iso(phaseStart(4) + 30 * MINUTE), event: 'knowledge_application_gate_warn', tool: 'phase_complete', agent: 'architect', reason: 'missing_sessionID', mode: 'warn' });

  const byTime = (a: Rec, b: Rec) => String(a.timestamp).localeCompare(String(b.timestamp));
  events.sort(byTime);
  application.sort(byTime);
  gateMain.sort(byTime);
  gateHotfix.sort(byTime);
  const orphans = entries.filter((e) => Date.parse(e.created_at) < linkedAtMs && e.status !== 'archived').slice(0, 3);
  return {
    entries, orphans, events, application, unacknowledged,
    gateLines: { main: gateMain, hotfix: gateHotfix },
    shownThisPhase: { 'Phase 5': phase5Ids },
    linkedAtMs,
  };
}
