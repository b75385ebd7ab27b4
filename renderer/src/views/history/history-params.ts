import { isMoment } from '../../state/moments';
import type { RouteParams } from '../../state/route';

/**
 * The History area's state as it lives in the URL (`#/history?since=…&until=…&tier=…&change=…&sel=…`),
 * so a range of changes can be shared and Back returns to it. Pure: parsed and written here only.
 */

export const TIERS = ['swarm', 'hive', 'link'] as const;
export const CHANGES = ['added', 'removed', 'changed'] as const;
export type Tier = (typeof TIERS)[number];
export type ChangeKind = (typeof CHANGES)[number];
export type HistoryTab = 'changes' | 'forgotten';

export interface HistoryState {
  tab: HistoryTab;
  since: string;
  until: string;
  /** Empty: every tier (and every kind of change). */
  tiers: Tier[];
  changes: ChangeKind[];
  /** The id of the row under the cursor. */
  sel: string | null;
  /** The entry whose timeline is open in this view (a removed entry the live stores no longer hold). */
  timeline: string | null;
  /** Moments in the URL the console cannot read, replaced by the default (said on the page, never silently). */
  refused: string[];
}

export const DEFAULT_SINCE = 'last-looked';
export const DEFAULT_UNTIL = 'now';

const listOf = <T extends string>(value: string | undefined, allowed: readonly T[]): T[] =>
  (value ?? '')
    .split(',')
    .filter((v): v is T => (allowed as readonly string[]).includes(v))
    .filter((v, i, all) => all.indexOf(v) === i);

export function parseHistoryParams(params: RouteParams): HistoryState {
  const refused: string[] = [];
  const moment = (key: 'since' | 'until', fallback: string) => {
    const value = params[key];
    if (value === undefined || value === '') return fallback;
    if (isMoment(value)) return value;
    refused.push(`${key}=${value}`);
    return fallback;
  };
  return {
    tab: params.tab === 'forgotten' ? 'forgotten' : 'changes',
    since: moment('since', DEFAULT_SINCE),
    until: moment('until', DEFAULT_UNTIL),
    tiers: listOf(params.tier, TIERS),
    changes: listOf(params.change, CHANGES),
    sel: params.sel || null,
    timeline: params.timeline || null,
    refused,
  };
}

/** The URL changes for a new state: defaults are left out so the plain `#/history` means "since I last looked, until now". */
export function historyParamChanges(state: Partial<Omit<HistoryState, 'refused'>>): Record<string, string | null> {
  const changes: Record<string, string | null> = {};
  if (state.tab !== undefined) changes.tab = state.tab === 'changes' ? null : state.tab;
  if (state.since !== undefined) changes.since = state.since === DEFAULT_SINCE ? null : state.since;
  if (state.until !== undefined) changes.until = state.until === DEFAULT_UNTIL ? null : state.until;
  if (state.tiers !== undefined) changes.tier = state.tiers.length ? state.tiers.join(',') : null;
  if (state.changes !== undefined) changes.change = state.changes.length ? state.changes.join(',') : null;
  if (state.sel !== undefined) changes.sel = state.sel;
  if (state.timeline !== undefined) changes.timeline = state.timeline;
  return changes;
}

/** Adds or removes one value of a multi-valued filter. */
export const toggled = <T extends string>(list: readonly T[], value: T): T[] => (list.includes(value) ? list.filter((v) => v !== value) : [...list, value]);
