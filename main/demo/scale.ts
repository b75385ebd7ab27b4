import { sha256Hex } from '../core/rules/canonical-json';
import { DAY, iso } from './clock';
import { scaleLesson } from './lesson-corpus';
import type { FillerEntry } from './receipt-filler';
import type { Rng } from './rng';

/** Benchmark volumes, added on top of the curated demo and spread across tiers and files. */
export interface DemoScale {
  knowledgeEntries?: number;
  eventLines?: number;
  receiptRecords?: number;
}

interface ScaleShares {
  swarmEntries: number;
  hiveEntries: number;
  linkEntries: number;
  knowledgeEvents: number;
  applicationLines: number;
  swarmEvents: number;
  hiveEvents: number;
  linkEvents: number;
  receiptRecords: number;
}

/** How a requested scale is spread: entries 70/20/10 over swarm/hive/link, events over five logs. */
export function scaleShares(scale: DemoScale | undefined): ScaleShares {
  const entries = Math.max(0, Math.floor(scale?.knowledgeEntries ?? 0));
  const events = Math.max(0, Math.floor(scale?.eventLines ?? 0));
  const hiveEntries = Math.floor(entries * 0.2);
  const linkEntries = Math.floor(entries * 0.1);
  const applicationLines = Math.floor(events * 0.2);
  const swarmEvents = Math.floor(events * 0.1);
  const hiveEvents = Math.floor(events * 0.05);
  const linkEvents = Math.floor(events * 0.05);
  return {
    swarmEntries: entries - hiveEntries - linkEntries,
    hiveEntries,
    linkEntries,
    knowledgeEvents: events - applicationLines - swarmEvents - hiveEvents - linkEvents,
    applicationLines,
    swarmEvents,
    hiveEvents,
    linkEvents,
    receiptRecords: Math.max(0, Math.floor(scale?.receiptRecords ?? 0)),
  };
}

/** Anything lines can be streamed into (a LineWriter, or an array for small stores that are hashed). */
interface JsonSink {
  json(value: unknown): void;
}

const STATUSES = ['candidate', 'established', 'established', 'promoted', 'archived'] as const;
const PRIORITIES = ['low', 'medium', 'medium', 'high', 'critical'] as const;

/**
 * Streams `count` synthetic entries (older history, created in [now-400d, now-30d]) and
 * returns their ids for the event and receipt generators. Lines are v2-normalised.
 */
export function writeScaleEntries(writer: JsonSink, rng: Rng, count: number, now: number, tier: 'swarm' | 'hive', project: string): string[] {
  const ids: string[] = new Array(count);
  const start = now - 400 * DAY;
  const step = (370 * DAY) / Math.max(1, count);
  const projects = ['ingest-svc', 'etl-jobs', 'web-storefront', 'payments-worker', 'billing-api'];
  for (let i = 0; i < count; i++) {
    const id = rng.uuid();
    ids[i] = id;
    const { lesson, category, tags, scope } = scaleLesson(i);
    const created = iso(Math.floor(start + i * step));
    const shown = rng.int(0, 20);
    const applied = rng.int(0, shown);
    const record: Record<string, unknown> = {
      id, tier, lesson, category, tags, scope, confidence: rng.float(0.3, 1), status: STATUSES[i % STATUSES.length],
      confirmed_by: tier === 'swarm' ? [{ phase_number: 1 + (i % 6), confirmed_at: created, project_name: project }] : [{ project_name: projects[i % projects.length], confirmed_at: created }],
      retrieval_outcomes: {
        applied_count: 0, succeeded_after_count: 0, failed_after_count: 0, shown_count: shown, acknowledged_count: applied, applied_explicit_count: applied,
        ignored_count: shown - applied > 2 ? 1 : 0, violated_count: 0, contradicted_count: 0, succeeded_after_shown_count: 0, failed_after_shown_count: 0,
      },
      schema_version: 1, created_at: created, updated_at: created,
    };
    if (tier === 'swarm') {
      record.project_name = project;
      record.phases_alive = i % 8;
    } else record.source_project = projects[(i + 1) % projects.length];
    record.encounter_score = tier === 'hive' ? rng.float(0.1, 3) : 0;
    if (i % 3 === 0) {
      record.required_actions = [lesson.slice(0, 120)];
      record.applies_to_agents = ['coder'];
      record.directive_priority = PRIORITIES[i % PRIORITIES.length];
    }
    writer.json(record);
  }
  return ids;
}

const EVENT_TYPES = ['retrieved', 'applied', 'applied', 'n_a', 'ignored', 'acknowledged', 'violated', 'outcome'] as const;

/** Older `knowledge-events.jsonl` history over the given ids, time-ordered. */
export function writeScaleKnowledgeEvents(writer: JsonSink, rng: Rng, count: number, ids: readonly string[], now: number, tier: 'swarm' | 'hive'): void {
  if (count <= 0 || ids.length === 0) return;
  const start = now - 400 * DAY;
  const step = (375 * DAY) / count;
  let traceId = rng.uuid();
  for (let i = 0; i < count; i++) {
    const ts = iso(Math.floor(start + i * step));
    const id = ids[rng.int(0, ids.length - 1)] as string;
    if (tier === 'hive') {
      writer.json({ schema_version: 1, type: 'archived', entry_id: id, tier: 'hive', actor: 'architect', reason: 'superseded by a newer hive lesson', mode: 'archive', previous_status: 'established', event_id: rng.uuid(), timestamp: ts });
      continue;
    }
    const type = EVENT_TYPES[i % EVENT_TYPES.length] as (typeof EVENT_TYPES)[number];
    const session = `ses_h${(i >> 8).toString(36).padStart(11, '0')}`;
    if (type === 'retrieved') {
      traceId = rng.uuid();
      const result = [id, ids[rng.int(0, ids.length - 1)] as string];
      writer.json({ schema_version: 1, type, trace_id: traceId, session_id: session, phase: `Phase ${1 + (i % 6)}`, agent: 'architect', query: 'history', retrieval_mode: 'auto_injection', result_ids: result, ranks: { [result[0] as string]: 1, [result[1] as string]: 2 }, scores: { [result[0] as string]: 1.1, [result[1] as string]: 0.7 }, event_id: rng.uuid(), timestamp: ts });
    } else if (type === 'outcome') {
      writer.json({ schema_version: 1, type, knowledge_id: id, phase: `Phase ${1 + (i % 6)}`, outcome: i % 5 === 0 ? 'failure' : 'success', evidence_summary: 'phase completed after entry was shown', event_id: rng.uuid(), timestamp: ts });
    } else {
      const body: Record<string, unknown> = { schema_version: 1, type, trace_id: traceId, knowledge_id: id, session_id: session, agent: 'coder' };
      if (type !== 'applied' && type !== 'acknowledged') body.reason = 'recorded by the benchmark history';
      writer.json({ ...body, event_id: rng.uuid(), timestamp: ts });
    }
  }
}

/** Older legacy application-log lines. */
export function writeScaleApplication(writer: JsonSink, rng: Rng, count: number, ids: readonly string[], now: number): void {
  if (count <= 0 || ids.length === 0) return;
  const start = now - 400 * DAY;
  const step = (375 * DAY) / count;
  const results = ['shown', 'shown', 'applied', 'acknowledged', 'ignored', 'violated'];
  for (let i = 0; i < count; i++) {
    writer.json({ timestamp: iso(Math.floor(start + i * step)), phase: `Phase ${1 + (i % 6)}`, knowledgeId: ids[rng.int(0, ids.length - 1)], result: results[i % results.length], sessionId: `ses_h${(i >> 8).toString(36).padStart(11, '0')}` });
  }
}

/** Older gate warnings, denials and curator lines for `.swarm/events.jsonl`. */
export function writeScaleSwarmEvents(writer: JsonSink, rng: Rng, count: number, ids: readonly string[], now: number): void {
  if (count <= 0 || ids.length === 0) return;
  const start = now - 400 * DAY;
  const step = (375 * DAY) / count;
  for (let i = 0; i < count; i++) {
    const timestamp = iso(Math.floor(start + i * step));
    const id = ids[rng.int(0, ids.length - 1)] as string;
    const sessionID = `ses_h${(i >> 6).toString(36).padStart(11, '0')}`;
    if (i % 4 === 0) writer.json({ timestamp, event: 'knowledge_application_gate_warn', tool: 'Task', agent: 'architect', sessionID, unacknowledged_critical_ids: [id] });
    else if (i % 4 === 1) writer.json({ timestamp, event: 'knowledge_application_gate_deny', sessionID, tool: 'Task', agent: 'architect', entry_ids: [id], trace_ids: [rng.uuid()], entry_set_key: sha256Hex(id).slice(0, 16), denial_count: 1 + (i % 5), max_gate_denials: 5 });
    else if (i % 4 === 2) writer.json({ type: 'curator_compliance', timestamp, phase: 1 + (i % 6), observation_type: 'workflow_deviation', severity: 'info', description: 'benchmark history observation' });
    else writer.json({ timestamp, event: 'curator_skipped', entry_id: id, lesson: 'benchmark history lesson that was not actionable', reason: 'missing_scope' });
  }
}

/** Receipt pool over scale entries (for the ledger's filler history). */
export function scaleReceiptPool(ids: readonly string[], limit: number): FillerEntry[] {
  const pool: FillerEntry[] = [];
  const stride = Math.max(1, Math.floor(ids.length / limit));
  for (let i = 0; i < ids.length && pool.length < limit; i += stride) {
    const id = ids[i] as string;
    pool.push({ id, tier: 'swarm', priority: PRIORITIES[i % PRIORITIES.length] as FillerEntry['priority'], sha256: sha256Hex(id) });
  }
  return pool;
}
