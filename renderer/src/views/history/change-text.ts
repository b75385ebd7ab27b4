import type { ChangesOutput } from '../../../../shared/contract/history';
import { when } from '../../state/format';
import { fieldDiffText, reasonText, unobservedText } from '../../state/history-words';
import type { ChangeKind, Tier } from './history-params';

/** The words of the Changes view, built from the core's answer (pure: tested without a DOM). */

export type ChangeRow = ChangesOutput['rows'][number];

/** When: the moment it was seen, or the stretch it happened in while nobody watched. */
export const changeWhenText = (row: Pick<ChangeRow, 'at' | 'unobserved'>): string => (row.unobserved ? unobservedText(row.unobserved) : when(row.at));

export const CHANGE_MEANING: Record<ChangeKind, string> = {
  added: 'entries that appeared in a store in the range',
  removed: 'entries that left the store they were in (the reason beside each)',
  changed: 'the same entry with a different line: fields that differ are listed',
};

/** The counts line, each figure with what it counts. */
export function countsText(counts: ChangesOutput['counts']): { kind: ChangeKind; text: string }[] {
  return [
    { kind: 'added', text: `${counts.added.toLocaleString('en-US')} added — ${CHANGE_MEANING.added}` },
    { kind: 'removed', text: `${counts.removed.toLocaleString('en-US')} removed — ${CHANGE_MEANING.removed}` },
    { kind: 'changed', text: `${counts.changed.toLocaleString('en-US')} changed — ${CHANGE_MEANING.changed}` },
  ];
}

/** What history can say about the range's start: before it began, nothing is known. */
export function historyBeganText(historyBegan: string | null, sinceAt: string): string {
  if (historyBegan === null) return 'History has recorded nothing yet: it begins when the console (or `swarm-console record`) first reads this workspace.';
  const before = Date.parse(sinceAt) < Date.parse(historyBegan);
  return `History began ${when(historyBegan)}; earlier changes are unknown${before ? ', so this range starts before anything was recorded' : ''}.`;
}

export function filterRows(rows: readonly ChangeRow[], tiers: readonly Tier[], changes: readonly ChangeKind[]): ChangeRow[] {
  return rows.filter((r) => (tiers.length === 0 || tiers.includes(r.place.tier)) && (changes.length === 0 || changes.includes(r.change)));
}

/** The row text that goes under the lesson: the diff for a change, the reason for a removal. */
export function rowDetailLines(row: ChangeRow): string[] {
  if (row.change === 'changed') return row.fields.length ? fieldDiffText(row.fields) : ['the line changed, no top-level field differs (spacing or field order)'];
  if (row.change === 'removed') return [reasonText(row.reason)];
  return [];
}

