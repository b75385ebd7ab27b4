import path from 'node:path';
import { DAY, HOUR, MINUTE, iso } from './clock';
import { type EntryDraft, entryLine, entryRecord, zeroCounters } from './entry-model';
import { DEMO_LINK_ID, DEMO_SECOND_PROJECT } from './ids';
import type { LessonDealer } from './lesson-corpus';
import { LineWriter, writeJsonLines, writePrettyJson, writeText } from './line-writer';
import type { Rng } from './rng';
import { emptyRollup } from './rollup';
import { writeScaleEntries, writeScaleKnowledgeEvents } from './scale';

const PROJECT = DEMO_SECOND_PROJECT;

function linkEntry(rng: Rng, dealer: LessonDealer, now: number, createdAgo: number): EntryDraft {
  const m = dealer.next();
  const created = iso(now - createdAgo);
  const phases = rng.sample([1, 2, 3, 4], rng.int(0, 3)).sort();
  const draft: EntryDraft = {
    id: rng.uuid(), tier: 'swarm', lesson: m.lesson, category: m.category, tags: m.tags, scope: m.scope, confidence: 0.5 + 0.1 * phases.length,
    status: phases.length >= 3 ? 'established' : rng.chance(0.1) ? 'archived' : 'candidate',
    confirmed_by: phases.map((phase_number, i) => ({ phase_number, confirmed_at: iso(Math.min(now - HOUR, now - createdAgo + (i + 1) * DAY)), project_name: PROJECT })),
    created_at: created, updated_at: iso(Math.min(now - HOUR, now - createdAgo + phases.length * DAY)), shape: rng.chance(0.25) ? 'v1' : 'v2',
    counters: zeroCounters(), legacy: { applied_count: 0, succeeded_after_count: 0, failed_after_count: 0 }, project_name: PROJECT, auto_generated: rng.chance(0.6),
  };
  if (draft.shape === 'v2') {
    draft.phases_alive = rng.int(0, 5);
    draft.counters.shown_count = rng.int(0, 9);
    draft.counters.applied_explicit_count = rng.int(0, draft.counters.shown_count);
  }
  if (rng.chance(0.35)) {
    draft.required_actions = [m.action];
    draft.applies_to_agents = m.agents.slice(0, 1);
    draft.directive_priority = rng.pick(['medium', 'high', 'high', 'critical'] as const);
    if (draft.directive_priority === 'critical') draft.enforcement_mode = 'enforce';
  }
  return draft;
}

/**
 * The link tier: `<dataDir>/links/payments-cohort/` holds the knowledge family shared by the
 * second demo project, whose `.swarm/link.json` points there and whose old local
 * `knowledge.jsonl` is left behind (ignored while linked). Returns the curated link entries.
 */
export function writeLinkTier(hiveDir: string, secondProjectDir: string, rng: Rng, dealer: LessonDealer, now: number, entryCount: number, scale?: { entries: number; events: number; rng: Rng }): EntryDraft[] {
  const linkDir = path.join(hiveDir, 'links', DEMO_LINK_ID);
  const linkedAt = now - 24 * DAY;
  const entries = Array.from({ length: entryCount }, () => linkEntry(rng, dealer, now, rng.int(2 * DAY, 60 * DAY))).sort((a, b) => a.created_at.localeCompare(b.created_at));
  const store = new LineWriter(path.join(linkDir, 'knowledge.jsonl'));
  const olderIds = scale ? writeScaleEntries(store, scale.rng, scale.entries, now, 'swarm', PROJECT) : [];
  for (const e of entries) store.line(entryLine(e));
  store.close();

  const events: Array<Record<string, unknown>> = [];
  const application: Array<Record<string, unknown>> = [];
  const active = entries.filter((e) => e.status !== 'archived');
  for (let t = 0; t < 12; t++) {
    const atMs = now - rng.int(HOUR, 20 * DAY);
    const shown = rng.sample(active, rng.int(2, 4));
    const traceId = rng.uuid();
    const sessionId = `ses_${rng.base62(12)}`;
    const phase = `Phase ${rng.int(1, 4)}`;
    events.push({
      schema_version: 1, type: 'retrieved', trace_id: traceId, session_id: sessionId, phase, agent: 'architect', query: rng.pick(['payout batching', 'queue consumer retries', 'ledger sync']),
      retrieval_mode: 'auto_injection', result_ids: shown.map((e) => e.id), ranks: Object.fromEntries(shown.map((e, i) => [e.id, i + 1])),
      scores: Object.fromEntries(shown.map((e) => [e.id, rng.float(0.4, 1.5)])), event_id: rng.uuid(), timestamp: iso(atMs),
    });
    for (const e of shown) {
      application.push({ timestamp: iso(atMs), phase, knowledgeId: e.id, result: 'shown', sessionId });
      if (!rng.chance(0.7)) continue;
      const type = rng.weighted([['applied', 60], ['ignored', 20], ['n_a', 15], ['violated', 5]] as const);
      const body: Record<string, unknown> = { schema_version: 1, type, trace_id: rng.uuid(), knowledge_id: e.id, session_id: sessionId, agent: 'coder' };
      if (type !== 'applied') body.reason = type === 'violated' ? 'diff skips the required step' : 'not relevant to this task';
      events.push({ ...body, event_id: rng.uuid(), timestamp: iso(atMs + rng.int(5, 90) * MINUTE) });
    }
  }
  events.sort((a, b) => String(a.timestamp).localeCompare(String(b.timestamp)));
  application.sort((a, b) => String(a.timestamp).localeCompare(String(b.timestamp)));
  const eventWriter = new LineWriter(path.join(linkDir, 'knowledge-events.jsonl'));
  if (scale) writeScaleKnowledgeEvents(eventWriter, scale.rng, scale.events, olderIds, now, 'swarm');
  for (const e of events) eventWriter.json(e);
  eventWriter.close();
  writeJsonLines(path.join(linkDir, 'knowledge-application.jsonl'), application);

  const baseline: Record<string, unknown> = {};
  for (const e of rng.sample(active.filter((x) => x.shape === 'v2'), 6).sort((a, b) => (a.id < b.id ? -1 : 1))) {
    baseline[e.id] = { ...emptyRollup(), shown_count: rng.int(3, 20), acknowledged_count: rng.int(1, 3), applied_explicit_count: rng.int(1, 3) };
  }
  writePrettyJson(path.join(linkDir, 'knowledge-counter-baseline.json'), baseline);

  const m = dealer.next();
  writeJsonLines(path.join(linkDir, 'knowledge-rejected.jsonl'), [
    { id: rng.uuid(), lesson: 'Queue it.', rejection_reason: 'lesson must be between 15 and 280 characters (got 9)', rejected_at: iso(now - 15 * DAY), rejection_layer: 1 },
    { id: rng.uuid(), lesson: 'Ignore certificate errors from the bank SFTP host during the migration window.', rejection_reason: 'security-degrading phrase detected: ignore certificate', rejected_at: iso(now - 6 * DAY), rejection_layer: 2 },
  ]);
  writeJsonLines(path.join(linkDir, 'knowledge-retractions.jsonl'), [
    { id: rng.uuid(), retracted_lesson: 'Process payout batches in a single transaction.', normalized_lesson: 'process payout batches in a single transaction', recorded_at: iso(now - 9 * DAY), reported_by: 'architect', matched_swarm_ids: [], matched_hive_ids: [] },
  ]);
  const quarantinedEntry = linkEntry(rng, dealer, now, 30 * DAY);
  writeJsonLines(path.join(linkDir, 'knowledge-quarantined.jsonl'), [
    { ...entryRecord({ ...quarantinedEntry, status: 'quarantined' }), original_status: quarantinedEntry.status, quarantine_reason: 'Quarantined via /swarm knowledge quarantine command', quarantined_at: iso(now - 8 * DAY), reported_by: 'user' },
  ]);
  const unactionable = linkEntry(rng, dealer, now, 12 * DAY);
  delete unactionable.required_actions;
  delete unactionable.applies_to_agents;
  writeJsonLines(path.join(linkDir, 'knowledge-unactionable.jsonl'), [
    { ...entryRecord({ ...unactionable, status: 'quarantined_unactionable', lesson: m.lesson }), unactionable_reason: 'missing_predicate_and_scope', quarantined_at: iso(now - 12 * DAY + 10) },
  ]);

  const swarm = path.join(secondProjectDir, '.swarm');
  writePrettyJson(path.join(swarm, 'link.json'), { version: 1, linkId: DEMO_LINK_ID, name: 'Payments Cohort', createdAt: iso(linkedAt), source: 'manual' });
  // Left behind when the worktree was linked: merged into the shared store, then ignored.
  const orphans = entries.filter((e) => Date.parse(e.created_at) < linkedAt).slice(0, 5);
  writeText(path.join(swarm, 'knowledge.jsonl'), orphans.map((e) => `${JSON.stringify({ ...entryRecord({ ...e, shape: 'v1' }), updated_at: e.created_at })}\n`).join(''));
  return entries;
}
