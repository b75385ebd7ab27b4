import type { ChangesOutput } from '../../../../shared/contract/history';
import { when } from '../../state/format';
import type { ChangeKind, Tier } from './history-params';

/** The words of the Changes view, built from the core's answer (pure: tested without a DOM). */

export type ChangeRow = ChangesOutput['rows'][number];
export type FieldDiff = ChangeRow['fields'][number];
export type Reason = NonNullable<ChangeRow['reason']>;
export type Place = ChangeRow['place'];

const parse = (text: string | null): unknown => {
  if (text === null) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const shown = (v: unknown): string => (v === undefined ? '(absent)' : typeof v === 'string' ? v : JSON.stringify(v));

/** Confidence reads as the plugin's two decimals (0.90 → 0.42); other numbers as they are stored. */
function valueText(field: string, value: string | null): string {
  if (value === null) return '(absent)';
  if (/(^|\.)confidence$/.test(field) && /^-?\d+(\.\d+)?$/.test(value)) return Number(value).toFixed(2);
  return value;
}

/**
 * One field's change as lines a person reads: `confidence 0.90 → 0.42`, `status established → archived`;
 * an object field (the counters) by its changed members (`retrieval_outcomes.applied_count 3 → 4`);
 * a list (triggers, tags) by what it gained and lost.
 */
export function fieldDiffLines(diff: FieldDiff): string[] {
  const before = parse(diff.before);
  const after = parse(diff.after);
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(after), ...Object.keys(before)])];
    const lines = keys
      .filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]))
      .map((k) => `${diff.field}.${k} ${valueText(`${diff.field}.${k}`, before[k] === undefined ? null : shown(before[k]))} → ${valueText(`${diff.field}.${k}`, after[k] === undefined ? null : shown(after[k]))}`);
    if (lines.length) return lines;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const was = before.map(shown);
    const now = after.map(shown);
    const gained = now.filter((v) => !was.includes(v));
    const lost = was.filter((v) => !now.includes(v));
    if (gained.length || lost.length) return [`${diff.field} ${[...gained.map((v) => `+ ${v}`), ...lost.map((v) => `− ${v}`)].join(', ')}`];
    return [`${diff.field} reordered`];
  }
  return [`${diff.field} ${valueText(diff.field, diff.before)} → ${valueText(diff.field, diff.after)}`];
}

export const fieldDiffText = (fields: readonly FieldDiff[]): string[] => fields.flatMap(fieldDiffLines);

/** Why an entry left: the stores' words, and where it is only the console's inference, said so. */
export function reasonText(reason: Reason | null): string {
  if (!reason) return 'left the store (no reason recorded)';
  return reason.inference ? `${reason.text} — inferred by the console; no store records why` : reason.text;
}

const KIND_WORDS: Record<Place['kind'], string> = {
  active: 'active store',
  quarantined: 'quarantine file',
  unactionable: 'unactionable queue',
  rejected: 'rejected lessons',
  hive: 'hive',
  link: 'link store',
};

/** `swarm · active store · knowledge.jsonl`: the tier, which file of it, and the file's name (the full path is the title). */
export function placeText(place: Place): string {
  const name = place.file.split(/[\\/]/).pop() || place.file;
  return `${place.tier} · ${KIND_WORDS[place.kind] ?? place.kind} · ${name}`;
}

type Unobserved = NonNullable<ChangeRow['unobserved']>;

/**
 * "changed between 2026-12-01 09:12 UTC and 2026-12-01 14:40 UTC (not observed in between)": the
 * core's verb, with the console's one clock (the zone named) for the two ends.
 */
export function unobservedText(u: Unobserved): string {
  const verb = /^(.*?) between /.exec(u.text)?.[1] || 'changed';
  return `${verb} between ${when(u.from)} and ${when(u.to)} (not observed in between)`;
}

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

/** A lesson as the row shows it: the stored text, or what is known when the line had none. */
export const lessonText = (lesson: string | null): string => lesson ?? '(no lesson text in this line)';
