import path from 'node:path';
import { DAY, iso } from '../clock';
import { type EntryDraft, entryLine, zeroCounters } from '../entry-model';
import type { LessonDealer } from '../lesson-corpus';
import { writeJsonLines, writeText } from '../line-writer';
import type { Rng } from '../rng';
import { RELEASED_PROJECT } from './ids';

const OTHER_PROJECTS = ['storefront', 'pricing-svc', 'etl-nightly'] as const;

/**
 * The released demo's own hive: promoted counterparts of the project's established entries and
 * lessons from three other projects, plus the one file the 7.103.2 plugin writes beside it
 * (`shared-knowledge-events.jsonl`, only `archived` tombstones from `knowledge_archive`).
 */
export function writeReleasedHive(hiveDir: string, rng: Rng, dealer: LessonDealer, now: number, counterparts: EntryDraft[]): void {
  const hive: EntryDraft[] = [];
  const base = (lesson: string, source: string, createdMs: number): EntryDraft => ({
    id: rng.uuid(), tier: 'hive', lesson, category: 'process', tags: [], scope: 'global', confidence: 0.5, status: 'candidate', confirmed_by: [],
    created_at: iso(createdMs), updated_at: iso(createdMs), shape: rng.chance(0.4) ? 'v1' : 'v2', counters: zeroCounters(),
    legacy: { applied_count: 0, succeeded_after_count: 0, failed_after_count: 0 }, source_project: source, encounter_score: 1,
  });
  for (const swarm of counterparts) {
    const e = base(swarm.lesson, RELEASED_PROJECT, Date.parse(swarm.updated_at) + DAY);
    Object.assign(e, { category: swarm.category, tags: swarm.tags, shape: 'v2', directive_priority: swarm.directive_priority, applies_to_agents: swarm.applies_to_agents, required_actions: swarm.required_actions });
    if (Date.parse(e.created_at) > now) e.created_at = e.updated_at = iso(now - DAY);
    hive.push(e);
  }
  for (let i = 0; i < 14; i++) {
    const m = dealer.next();
    const source = rng.pick(OTHER_PROJECTS);
    const createdMs = now - rng.int(5 * DAY, 120 * DAY);
    const confirmations = rng.sample([RELEASED_PROJECT, ...OTHER_PROJECTS].filter((p) => p !== source), rng.int(0, 3));
    const e = base(m.lesson, source, createdMs);
    Object.assign(e, {
      category: m.category, tags: m.tags, scope: m.scope, status: confirmations.length >= 3 ? 'established' : rng.chance(0.1) ? 'archived' : 'candidate',
      confirmed_by: confirmations.map((project_name, k) => ({ project_name, confirmed_at: iso(Math.min(now - DAY, createdMs + (k + 1) * 3 * DAY)) })),
      encounter_score: Math.round((1 + confirmations.length * 0.1) * 100) / 100,
    });
    hive.push(e);
  }
  hive.sort((a, b) => a.created_at.localeCompare(b.created_at));
  writeText(path.join(hiveDir, 'shared-learnings.jsonl'), hive.map((e) => `${entryLine(e)}\n`).join(''));
  const archived = hive.filter((e) => e.status === 'archived');
  writeJsonLines(
    path.join(hiveDir, 'shared-knowledge-events.jsonl'),
    archived.map((e) => ({ schema_version: 1, type: 'archived', entry_id: e.id, tier: 'hive', actor: 'architect', reason: 'superseded by a newer lesson', mode: 'archive', previous_status: 'candidate', event_id: rng.uuid(), timestamp: e.updated_at })),
  );
}
