import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sha256Hex } from '../core/rules/canonical-json';
import { DAY, HOUR, iso } from './clock';
import { type EntryDraft, type Status, entryLine, entryRecord, zeroCounters } from './entry-model';
import { DEMO_IDS as ID } from './ids';
import type { LessonDealer } from './lesson-corpus';
import { LineWriter, writeJsonLines, writePrettyJson, writeText } from './line-writer';
import type { Rng } from './rng';
import { writeScaleEntries, writeScaleKnowledgeEvents } from './scale';

type Rec = Record<string, unknown>;

const OTHER_PROJECTS = ['ingest-svc', 'etl-jobs', 'web-storefront', 'payments-worker'] as const;

function projectConfirmations(rng: Rng, source: string, createdMs: number, now: number, count: number): Rec[] {
  const projects = rng.sample(['billing-api', ...OTHER_PROJECTS].filter((p) => p !== source), count);
  let cursor = createdMs;
  return projects.map((project_name) => {
    cursor = Math.min(now - 5 * HOUR, cursor + rng.int(6 * HOUR, 12 * DAY));
    return { project_name, confirmed_at: iso(cursor) };
  });
}

function hiveDraft(id: string, lesson: string, fields: Partial<EntryDraft>, createdMs: number): EntryDraft {
  return {
    id, tier: 'hive', lesson, category: 'process', tags: [], scope: 'global', confidence: 0.5, status: 'candidate', confirmed_by: [],
    created_at: iso(createdMs), updated_at: iso(createdMs), shape: 'v1', counters: zeroCounters(), legacy: { applied_count: 0, succeeded_after_count: 0, failed_after_count: 0 },
    ...fields,
  };
}

const DIRECTIVE_CARRY: Array<keyof EntryDraft> = ['triggers', 'required_actions', 'forbidden_actions', 'verification_checks', 'applies_to_agents', 'applies_to_tools', 'verification_predicate', 'directive_priority', 'enforcement_mode'];

/**
 * Hive entries: the sample ingest-svc lesson, counterparts of promoted/eligible swarm entries
 * (same lesson text, `source_project: billing-api`), an archived one, the two that went to the
 * quarantine sidecar (returned separately) and seeded lessons from four other projects.
 */
export function buildHiveEntries(rng: Rng, dealer: LessonDealer, now: number, swarmCounterparts: EntryDraft[], count: number): { store: EntryDraft[]; quarantined: EntryDraft[] } {
  const cap = now - 4 * HOUR;
  const store: EntryDraft[] = [
    hiveDraft(ID.hiveStream, 'Prefer stream.Readable.from(generator) over async iterators for backpressure in node pipelines.', {
      category: 'performance', tags: ['runtime', 'performance'], status: 'established',
      confirmed_by: [
        { project_name: 'ingest-svc', confirmed_at: iso(now - 61 * DAY) },
        { project_name: 'billing-api', confirmed_at: iso(now - 31 * DAY) },
        { project_name: 'etl-jobs', confirmed_at: iso(now - 7 * DAY) },
      ],
      updated_at: iso(now - 7 * DAY), source_project: 'ingest-svc', encounter_score: 1.15, applies_to_agents: ['coder'], forbidden_actions: ['use async iterators in hot stream paths'],
    }, now - 65 * DAY),
    hiveDraft(ID.hiveArchived, 'Run database migrations from the application container at startup.', {
      category: 'architecture', tags: ['migrations'], status: 'archived', confidence: 0.5, source_project: 'web-storefront', encounter_score: 0.4, shape: 'v2',
      updated_at: iso(now - 12 * DAY),
    }, now - 140 * DAY),
  ];
  for (const swarm of swarmCounterparts) {
    const createdMs = Date.parse(swarm.updated_at) + HOUR;
    const explicit = swarm.id === ID.promotedWithCounterpart;
    const carried: Partial<EntryDraft> = {};
    for (const key of DIRECTIVE_CARRY) if (swarm[key] !== undefined) (carried as Record<string, unknown>)[key] = swarm[key];
    const confirmed = explicit ? [] : projectConfirmations(rng, 'billing-api', createdMs, now, rng.int(0, 3));
    store.push(hiveDraft(explicit ? ID.hiveCounterpart : rng.uuid(), swarm.lesson, {
      ...carried,
      category: swarm.category, tags: swarm.tags.filter((t) => t !== 'hive-fast-track'), scope: swarm.scope,
      status: explicit ? 'promoted' : confirmed.length >= 3 ? 'established' : 'candidate', confidence: explicit ? 1 : 0.5,
      confirmed_by: confirmed, source_project: 'billing-api', shape: 'v2',
      encounter_score: explicit ? 1 : Math.round((1 + confirmed.length * 0.05) * 100) / 100,
      updated_at: iso(Math.min(cap, Math.max(createdMs, ...confirmed.map((c) => Date.parse(c.confirmed_at as string))))),
    }, Math.min(createdMs, cap)));
  }
  const quarantined = [ID.hiveQuarantinedA, ID.hiveQuarantinedB].map((id, i) => {
    const material = dealer.next();
    return hiveDraft(id, i === 0 ? 'Seed the local database from the production dump in ~/dumps before running integration tests.' : material.lesson, {
      category: i === 0 ? 'testing' : material.category, tags: material.tags, status: i === 0 ? 'established' : 'candidate', source_project: 'web-storefront',
      encounter_score: 1.3, shape: 'v2', confirmed_by: projectConfirmations(rng, 'web-storefront', now - 50 * DAY, now, 2),
    }, now - 50 * DAY);
  });
  const statuses: ReadonlyArray<readonly [Status, number]> = [['candidate', 35], ['established', 35], ['promoted', 20], ['archived', 10]];
  for (let i = store.length; i < count; i++) {
    const material = dealer.next();
    const source = rng.weighted([['ingest-svc', 30], ['etl-jobs', 25], ['web-storefront', 25], ['payments-worker', 15], ['billing-api', 5]] as const);
    const createdMs = now - rng.int(5 * DAY, 200 * DAY);
    const status = rng.weighted(statuses);
    const manual = status === 'promoted' && rng.chance(0.5);
    const confirmed = manual ? [] : projectConfirmations(rng, source, createdMs, now, status === 'established' ? rng.int(3, 4) : rng.int(0, 2));
    const legacy = rng.chance(0.2);
    const draft = hiveDraft(rng.uuid(), material.lesson, {
      category: manual && rng.chance(0.5) ? 'process' : material.category, tags: manual ? [] : material.tags, scope: manual ? 'global' : material.scope,
      status, confidence: manual ? 1 : rng.chance(0.2) ? rng.float(0.5, 0.9) : 0.5, confirmed_by: confirmed, source_project: source,
      shape: legacy ? 'v1' : 'v2', updated_at: iso(Math.min(cap, Math.max(createdMs, ...confirmed.map((c) => Date.parse(c.confirmed_at as string))))),
    }, createdMs);
    if (!legacy) {
      draft.encounter_score = manual ? 1 : Math.round(Math.min(10, Math.max(0.1, 1 + confirmed.length * rng.pick([0.05, 0.1]) - (status === 'archived' ? 0.8 : 0))) * 100) / 100;
      draft.counters = { ...zeroCounters(), shown_count: rng.int(0, 12) };
      draft.counters.applied_explicit_count = rng.int(0, draft.counters.shown_count);
    } else if (rng.chance(0.5)) draft.encounter_count = rng.int(1, 6);
    if (rng.chance(0.25)) {
      draft.applies_to_agents = material.agents.slice(0, 1);
      draft.required_actions = [material.action];
      draft.directive_priority = rng.pick(['low', 'medium', 'high'] as const);
    }
    store.push(draft);
  }
  store.sort((a, b) => a.created_at.localeCompare(b.created_at));
  return { store, quarantined };
}

/** A LineWriter that also hashes and counts what it writes (store statistics for the backup manifest). */
function hashedWriter(file: string) {
  const writer = new LineWriter(file);
  const hash = crypto.createHash('sha256');
  return {
    get lines() {
      return writer.lines;
    },
    line(text: string) {
      writer.line(text);
      hash.update(`${text}\n`);
    },
    close() {
      writer.close();
      return { entry_count: writer.lines, line_count: writer.lines, byte_length: writer.bytes, file_sha256: hash.digest('hex') };
    },
  };
}

/**
 * Writes the hive files under `<dataDir>`: the store, rejected lessons, the audit log (archived
 * tombstones and the PROPOSED quarantine commit), the PROPOSED sidecar with its backup folder,
 * and the matching `knowledge_maintenance` telemetry line in the project.
 */
export function writeHive(hiveDir: string, projectDir: string, rng: Rng, now: number, hive: { store: EntryDraft[]; quarantined: EntryDraft[] }, scale?: { entries: number; events: number; rng: Rng }): void {
  const storeFile = path.join(hiveDir, 'shared-learnings.jsonl');
  // Quarantine commit 3 hours ago: the backup holds the store as it was, with the selected lines in
  // place. Store and backup are streamed side by side and hashed as they are written.
  const commitMs = now - 3 * HOUR;
  const token12 = rng.hex(12);
  const backupName = `${iso(commitMs).replace(/[-:]/g, '').replace('.', '')}-${token12}-${rng.hex(8)}`;
  const backupDir = path.join(hiveDir, 'quarantine-backups', backupName);
  const selectedLines = hive.quarantined.map((q) => entryLine(q));
  const total = (scale?.entries ?? 0) + hive.store.length;
  const insertAt = [Math.min(17, total), Math.min(58, total + 1)];
  const store = hashedWriter(storeFile);
  const backup = hashedWriter(path.join(backupDir, 'shared-learnings.jsonl'));
  const emit = (line: string) => {
    store.line(line);
    selectedLines.forEach((selected, i) => {
      if (backup.lines === insertAt[i]) backup.line(selected);
    });
    backup.line(line);
  };
  const olderIds = scale ? writeScaleEntries({ json: (v) => emit(JSON.stringify(v)) }, scale.rng, scale.entries, now, 'hive', 'hive') : [];
  for (const entry of hive.store) emit(entryLine(entry));
  selectedLines.forEach((selected, i) => {
    if (backup.lines === insertAt[i]) backup.line(selected);
  });
  const storeStats = store.close();
  const beforeStats = backup.close();

  writeJsonLines(path.join(hiveDir, 'shared-learnings-rejected.jsonl'), [
    { id: rng.uuid(), lesson: 'Bypass auth for internal health checks to keep probes cheap.', rejection_reason: 'security-degrading phrase detected: bypass auth', rejected_at: iso(now - 33 * DAY), rejection_layer: 2 },
    { id: rng.uuid(), lesson: 'Link the docs with javascript:void(0) anchors in the admin UI.', rejection_reason: 'injection marker detected: javascript:', rejected_at: iso(now - 21 * DAY), rejection_layer: 2 },
    { id: rng.uuid(), lesson: 'Cache it.', rejection_reason: 'lesson must be between 15 and 280 characters (got 9)', rejected_at: iso(now - 12 * DAY), rejection_layer: 1 },
    { id: rng.uuid(), lesson: 'Run sudo rm -rf /var/cache/app before every deploy to avoid stale assets.', rejection_reason: 'dangerous command pattern detected', rejected_at: iso(now - 4 * DAY), rejection_layer: 2 },
  ]);

  const selectedText = selectedLines.map((l) => `${l}\n`).join('');
  writeText(path.join(backupDir, 'selected.jsonl'), selectedText);
  const reason = 'leaked local dump path and a scratch-project lesson promoted by mistake';
  writePrettyJson(path.join(backupDir, 'manifest.json'), {
    manifest_version: 1, op: 'hive-quarantine', created_at: iso(commitMs - 400), token12, token_exp: iso(commitMs - 400 + 900_000), plugin_version: '7.103.2', platform: 'linux',
    hive_path: path.resolve(storeFile), store: beforeStats,
    selected: hive.quarantined.map((q, i) => ({
      id: q.id, line_index: insertAt[i], line_sha256: sha256Hex(selectedLines[i] as string), status: q.status, confidence: q.confidence, source_project: q.source_project, lineage_actor: null, lesson_sha256: sha256Hex(q.lesson),
    })),
    files: { 'shared-learnings.jsonl': beforeStats.file_sha256, 'selected.jsonl': sha256Hex(selectedText) },
    reason, actor: { kind: 'human-console' },
  });
  writePrettyJson(path.join(backupDir, 'result.json'), { state: 'committed', at: iso(commitMs + 200), post: { entry_count: storeStats.entry_count, file_sha256: storeStats.file_sha256 }, sidecar_appended: true });
  writeJsonLines(path.join(hiveDir, 'shared-learnings-quarantined.jsonl'), hive.quarantined.map((q, i) => ({
    ...entryRecord({ ...q, status: 'quarantined' }), original_status: q.status, quarantine_reason: reason, quarantined_at: iso(commitMs + 100),
    reported_by: 'user', quarantine_token12: token12, quarantine_backup: backupName, original_line_sha256: sha256Hex(selectedLines[i] as string),
  })));

  const events = new LineWriter(path.join(hiveDir, 'shared-knowledge-events.jsonl'));
  if (scale) writeScaleKnowledgeEvents(events, scale.rng, scale.events, olderIds, now, 'hive');
  const archived = hive.store.filter((e) => e.status === 'archived').sort((a, b) => a.updated_at.localeCompare(b.updated_at));
  for (const e of archived) {
    events.json({ schema_version: 1, type: 'archived', entry_id: e.id, tier: 'hive', actor: 'architect', reason: e.id === ID.hiveArchived ? 'conflicts with the migration runner policy' : 'superseded by a newer hive lesson', mode: 'archive', previous_status: rng.pick(['candidate', 'established']), event_id: rng.uuid(), timestamp: e.updated_at });
  }
  hive.quarantined.forEach((q, i) => {
    events.json({ schema_version: 1, type: 'quarantined', tier: 'hive', entry_id: q.id, actor: 'human:hive-quarantine', reason, previous_status: q.status, op: 'commit', token12, line_sha256: sha256Hex(selectedLines[i] as string), backup: backupName, event_id: rng.uuid(), timestamp: iso(commitMs + 110 + i) });
  });
  events.close();

  const telemetry = path.join(projectDir, '.swarm', 'telemetry.jsonl');
  fs.mkdirSync(path.dirname(telemetry), { recursive: true });
  fs.writeFileSync(telemetry, JSON.stringify({
    timestamp: iso(commitMs + 300), event: 'knowledge_maintenance', op: 'hive_quarantine', phase: 'commit', outcome: 'ok', code: 'committed', selected_count: hive.quarantined.length,
    entry_count_before: beforeStats.entry_count, entry_count_after: storeStats.entry_count, store_sha256_prefix: beforeStats.file_sha256.slice(0, 12), token12,
  }) + '\n');
}
