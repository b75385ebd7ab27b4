import path from 'node:path';
import { DAY, HOUR, iso } from '../clock';
import { type EntryDraft, entryLine, entryRecord, zeroCounters } from '../entry-model';
import { LessonDealer } from '../lesson-corpus';
import { writeJsonLines, writePrettyJson, writeText } from '../line-writer';
import { createRng } from '../rng';
import { computeRollups } from '../rollup';
import { RELEASED_HIVE, RELEASED_IDS as ID, RELEASED_LINK_ID, RELEASED_PROJECT, RELEASED_SKILL, RELEASED_WORKTREE } from './ids';
import { writeReleasedHive } from './hive-files';
import { writeReleasedSkills } from './skill-files';
import { buildReleasedStory } from './story';

export { RELEASED_IDS, RELEASED_LINK_ID, RELEASED_PROJECT, RELEASED_WORKTREE } from './ids';

/** Bump when the released demo's content changes, so existing demo folders are regenerated. */
export const RELEASED_DEMO_VERSION = 2;

export interface ReleasedDemoLocation {
  projectDir: string;
  worktreeDir: string;
  hiveDir: string;
}

export function releasedDemoLocation(demoRoot: string): ReleasedDemoLocation {
  return { projectDir: path.join(demoRoot, RELEASED_PROJECT), worktreeDir: path.join(demoRoot, RELEASED_WORKTREE), hiveDir: path.join(demoRoot, RELEASED_HIVE) };
}

/**
 * Writes a project exactly as opencode-swarm 7.103.2 leaves it (seeded, deterministic for a seed
 * and `now`): two worktrees linked to one link store in their own hive, the knowledge family and
 * its legacy logs in the link dir, gate warnings per worktree, curator and skill files, and the
 * hotfix worktree's orphaned local `knowledge.jsonl`. Nothing docs/plugin-formats.md marks DOC-ONLY or
 * PROPOSED: no V2 receipt files, no `acknowledged` events, no logged denials, no hive sidecars.
 */
export function generateReleasedDemo(demoRoot: string, seed: number, now: number): ReleasedDemoLocation {
  const location = releasedDemoLocation(demoRoot);
  const rng = createRng(seed, 'released');
  const dealer = new LessonDealer(rng.fork('lessons'));
  const story = buildReleasedStory(rng.fork('story'), dealer, now);
  // Added in Phase 5, four hours before the anchor (the newest line: the plugin appends).
  story.entries.push({
    id: ID.addedInPhase5, tier: 'swarm', lesson: 'Reserve stock per warehouse in one statement; a read-then-write pair lets two orders take the last unit.',
    category: 'architecture', tags: ['reservations', 'concurrency'], scope: 'global', confidence: 0.5, status: 'candidate', confirmed_by: [],
    created_at: iso(now - 4 * HOUR), updated_at: iso(now - 4 * HOUR), shape: 'v2', counters: zeroCounters(),
    legacy: { applied_count: 0, succeeded_after_count: 0, failed_after_count: 0 }, project_name: RELEASED_PROJECT, phases_alive: 0,
  });

  // The plugin bumps the stored counters on every shown line and marker, so stored = rolled up.
  const rollups = computeRollups({}, story.events, story.application);
  for (const entry of story.entries) {
    const r = rollups.get(entry.id);
    if (!r || entry.shape !== 'v2') continue;
    entry.counters = {
      shown_count: r.shown_count, acknowledged_count: r.acknowledged_count, applied_explicit_count: r.applied_explicit_count, ignored_count: r.ignored_count,
      violated_count: r.violated_count, contradicted_count: r.contradicted_count, succeeded_after_shown_count: r.succeeded_after_shown_count, failed_after_shown_count: r.failed_after_shown_count,
    };
    if (r.last_applied_at && entry.directive_priority) entry.last_applied_at = r.last_applied_at;
    if (r.last_acknowledged_at && entry.directive_priority) entry.last_acknowledged_at = r.last_acknowledged_at;
  }
  const enforced = story.entries.find((e) => e.id === ID.criticalEnforced) as EntryDraft;
  enforced.generated_skill_slug = RELEASED_SKILL;
  enforced.generated_skill_path = `.opencode/skills/generated/${RELEASED_SKILL}/SKILL.md`;

  const linkDir = path.join(location.hiveDir, 'links', RELEASED_LINK_ID);
  writeText(path.join(linkDir, 'knowledge.jsonl'), story.entries.map((e) => `${entryLine(e)}\n`).join(''));
  writeJsonLines(path.join(linkDir, 'knowledge-events.jsonl'), story.events);
  writeJsonLines(path.join(linkDir, 'knowledge-application.jsonl'), story.application);
  writeJsonLines(path.join(linkDir, 'knowledge-rejected.jsonl'), [
    { id: rng.uuid(), lesson: 'Fix it later.', rejection_reason: 'lesson must be between 15 and 280 characters (got 13)', rejected_at: iso(now - 20 * DAY), rejection_layer: 1 },
    { id: rng.uuid(), lesson: 'Disable TLS verification for the ERP sandbox so the sync job stops failing.', rejection_reason: 'security-degrading phrase detected: disable tls', rejected_at: iso(now - 5 * DAY), rejection_layer: 2 },
  ]);
  const unactionableLesson = 'Warehouse codes sometimes differ between the ERP export and the stock tables.';
  const unactionable = { ...story.entries[0] as EntryDraft, id: rng.uuid(), lesson: unactionableLesson, status: 'quarantined_unactionable' as const, shape: 'v2' as const, directive_priority: undefined, required_actions: undefined, applies_to_agents: undefined };
  writeJsonLines(path.join(linkDir, 'knowledge-unactionable.jsonl'), [{ ...entryRecord(unactionable), unactionable_reason: 'missing_predicate_and_scope', quarantined_at: iso(now - 4 * DAY) }]);

  const pointer = { version: 1, linkId: RELEASED_LINK_ID, name: 'inventory-api', createdAt: iso(story.linkedAtMs), source: 'manual' };
  for (const dir of [location.projectDir, location.worktreeDir]) writePrettyJson(path.join(dir, '.swarm', 'link.json'), pointer);
  // Left behind when the hotfix worktree was linked: merged into the shared store, then ignored.
  writeText(path.join(location.worktreeDir, '.swarm', 'knowledge.jsonl'), story.orphans.map((e) => `${JSON.stringify({ ...entryRecord({ ...e, shape: 'v1' }), updated_at: e.created_at })}\n`).join(''));

  const swarm = path.join(location.projectDir, '.swarm');
  const skipped = { timestamp: iso(now - 4 * DAY), event: 'curator_skipped', entry_id: unactionable.id, lesson: unactionableLesson, reason: 'missing_predicate_and_scope' };
  const compliance = { type: 'curator_compliance', timestamp: iso(now - 6 * DAY + HOUR), phase: 2, observation_type: 'missing_reviewer', severity: 'warning', description: 'Task 2.3 was marked complete without a reviewer delegation.' };
  const byTime = (a: Record<string, unknown>, b: Record<string, unknown>) => String(a.timestamp).localeCompare(String(b.timestamp));
  writeJsonLines(path.join(swarm, 'events.jsonl'), [...story.gateLines.main, skipped, compliance].sort(byTime));
  writeJsonLines(path.join(location.worktreeDir, '.swarm', 'events.jsonl'), story.gateLines.hotfix);
  writeJsonLines(path.join(swarm, 'unacknowledged-criticals.jsonl'), story.unacknowledged);
  writePrettyJson(path.join(swarm, '.knowledge-shown.json'), story.shownThisPhase);
  writePrettyJson(path.join(location.projectDir, '.opencode', 'opencode-swarm.json'), {
    knowledge_application: { enabled: true, mode: 'warn', critical_requires_ack: true },
    // The store is at its cap, so the scripted week's knowledge_add calls evict (docs/plugin-formats.md#caps-and-ttl-archive).
    knowledge: { swarm_max_entries: story.entries.length },
  });
  writeReleasedSkills(location.projectDir, rng.fork('skills'), now, story.entries);

  writeReleasedHive(location.hiveDir, rng.fork('hive'), dealer, now, story.entries.filter((e) => e.status === 'established'));
  return location;
}
