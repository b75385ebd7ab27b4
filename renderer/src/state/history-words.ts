import type { ChangesOutput } from '../../../shared/contract/history';
import { when } from './format';

/**
 * The words of history shared by every view that shows it (the History area's changes, forgotten
 * entries and timelines; Knowledge's per-entry History): a field's change, where an entry lived,
 * why it left, the stretch nobody watched. Pure, so the wording is tested without a page and is
 * the same wherever it appears.
 */

type ChangeRow = ChangesOutput['rows'][number];
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

export const KIND_WORDS: Record<Place['kind'], string> = {
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

/** A lesson as the row shows it: the stored text, or what is known when the line had none. */
export const lessonText = (lesson: string | null): string => lesson ?? '(no lesson text in this line)';
