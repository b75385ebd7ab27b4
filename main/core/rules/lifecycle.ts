import { entryCategory, entryConfidence, entryStatus, num, type RawEntry } from './entry-fields';
import type { EffectiveOutcomes } from './counters';
import type { KnowledgeThresholds } from './thresholds';

/**
 * Lifecycle and quality markers, from the plugin's phase sweep
 * (docs/plugin-formats.md#caps-and-ttl-archive) and its evergreen / low-utility thresholds.
 */

export interface ExpiryMarker {
  /** What happens when the countdown ends: `archived` by the TTL sweep, `deleted` by the todo sweep. */
  action: 'archived' | 'deleted';
  /** Successful phase completions left until it happens; 0 = overdue (the next sweep acts). */
  phasesLeft: number;
  phasesAlive: number;
  limit: number;
  limitSource: 'max_phases' | 'default_max_phases' | 'todo_max_phases';
}

/**
 * The sweep skips `archived` and `promoted` entries, increments `phases_alive` on the rest and
 * archives an entry once `phases_alive > (max_phases ?? default_max_phases)`; non-promoted
 * `todo` entries are deleted once `phases_alive > todo_max_phases`. After k more sweeps an
 * entry has `phases_alive + k`, so the action happens after `limit − phases_alive + 1` phases.
 * Queue records (`quarantined_unactionable`) live in a side file the sweep never touches.
 */
export function expiryMarker(entry: RawEntry, t: Pick<KnowledgeThresholds, 'default_max_phases' | 'todo_max_phases'>): ExpiryMarker | null {
  const status = entryStatus(entry);
  if (status === 'archived' || status === 'promoted' || status === 'quarantined_unactionable') return null;
  const phasesAlive = Math.max(0, Math.floor(num(entry.phases_alive) ?? 0));
  const ownLimit = num(entry.max_phases);
  const archive: ExpiryMarker = {
    action: 'archived',
    phasesLeft: 0,
    phasesAlive,
    limit: ownLimit ?? t.default_max_phases,
    limitSource: ownLimit !== undefined ? 'max_phases' : 'default_max_phases',
  };
  archive.phasesLeft = Math.max(0, archive.limit - phasesAlive + 1);
  if (entryCategory(entry) !== 'todo') return archive;
  const todo: ExpiryMarker = {
    action: 'deleted',
    phasesLeft: Math.max(0, t.todo_max_phases - phasesAlive + 1),
    phasesAlive,
    limit: t.todo_max_phases,
    limitSource: 'todo_max_phases',
  };
  // Both sweeps run each phase; the archive step comes first, so it wins a tie.
  return todo.phasesLeft < archive.phasesLeft ? todo : archive;
}

/**
 * Utility: the share of showings that ended well, `min(1, (applied + succeeded_after_shown) / shown)`
 * over the effective counters. The plugin declares the evergreen / low-utility thresholds but
 * never writes a utility score, so this console defines it; it is `null` until the entry has
 * been shown `min_retrievals_for_utility` times, because a ratio over one or two showings says
 * nothing.
 */
export function utilityScore(o: Pick<EffectiveOutcomes, 'shown_count' | 'applied_explicit_count' | 'succeeded_after_shown_count'>, t: Pick<KnowledgeThresholds, 'min_retrievals_for_utility'>): number | null {
  if (o.shown_count <= 0 || o.shown_count < t.min_retrievals_for_utility) return null;
  return Math.min(1, (o.applied_explicit_count + o.succeeded_after_shown_count) / o.shown_count);
}

/** Low-utility needs a real sample: at least this many showings (and never fewer than `min_retrievals_for_utility`). */
const LOW_UTILITY_MIN_SHOWN = 5;

export interface QualityMarkers {
  utility: number | null;
  evergreen: boolean;
  lowUtility: boolean;
}

export function qualityMarkers(entry: RawEntry, o: EffectiveOutcomes, t: KnowledgeThresholds): QualityMarkers {
  const utility = utilityScore(o, t);
  const evergreen = utility !== null && entryConfidence(entry) >= t.evergreen_confidence && utility >= t.evergreen_utility;
  const lowUtility =
    utility !== null && o.shown_count >= Math.max(LOW_UTILITY_MIN_SHOWN, t.min_retrievals_for_utility) && utility <= t.low_utility_threshold;
  return { utility, evergreen, lowUtility };
}
