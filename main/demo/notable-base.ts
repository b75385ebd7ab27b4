// Shared builders for the hand-written demo entries.
import { DAY, iso } from './clock';
import { type Counters, type EntryDraft, zeroCounters } from './entry-model';
import { DEMO_PROJECT } from './ids';

const P = DEMO_PROJECT;
export const skillPath = (slug: string) => `.opencode/skills/generated/${slug}/SKILL.md`;

export function counters(partial: Partial<Counters>): Counters {
  return { ...zeroCounters(), ...partial };
}

/** Builders shared by the notable entry lists: timestamps relative to now, swarm defaults. */
export function notableBuilders(now: number) {
  const at = (offset: number) => iso(now - offset);
  const confirm = (...phases: Array<[number, number]>) =>
    phases.map(([phase_number, offset]) => ({ phase_number, confirmed_at: at(offset), project_name: P }));
  const base = (id: string, lesson: string, overrides: Partial<EntryDraft>): EntryDraft => ({
    id,
    tier: 'swarm',
    lesson,
    category: 'process',
    tags: [],
    scope: 'global',
    confidence: 0.6,
    status: 'candidate',
    confirmed_by: [],
    created_at: at(30 * DAY),
    updated_at: at(30 * DAY),
    shape: 'v2',
    counters: zeroCounters(),
    legacy: { applied_count: 0, succeeded_after_count: 0, failed_after_count: 0 },
    project_name: P,
    auto_generated: false,
    hive_eligible: false,
    phases_alive: 0,
    ...overrides,
  });

  return { at, confirm, base };
}
