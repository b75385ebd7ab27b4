import type { TimelineOutput } from '../../../shared/contract/history';
import { fieldDiffLines, KIND_WORDS, lessonText, placeText, unobservedText } from './history-words';
import { whenToSecond } from './moments';

/**
 * The words of an entry's history, newest version first — the detail pane's "History" and the
 * History area's timeline of an entry the stores no longer hold: when each version held, where it
 * lived, what changed, how history learned of it and why it ended. Pure, so the wording is tested
 * without a page; components/VersionList renders these lines as text.
 */
export type TimelineVersion = TimelineOutput['versions'][number];

const ORIGIN_WORDS: Record<TimelineVersion['origin'], string> = {
  baseline: 'baseline: already in the store when history began',
  'catch-up': 'found on opening: written while no console or recorder was watching',
  live: 'seen live, as the plugin wrote it',
};

export interface VersionText {
  key: string;
  /** When it held: "since …", "… → …", or the unobserved stretch it appeared in. */
  time: string;
  /** `swarm · active store · knowledge.jsonl`, and the file's path as stored (the title). */
  place: string;
  file: string;
  /** One line per changed field (`confidence 0.90 → 0.42`), or what the first version is. */
  changes: string[];
  /** The version's lesson where it differs from the version before (the first version's always). */
  lesson: string | null;
  origin: string;
  /** Why this version ended, or that it is the current one. */
  end: string;
  /** Whether it is the version in place at `at` (the as-of moment). */
  current: boolean;
}

const lessonOf = (v: TimelineVersion): string | null => (typeof v.record?.lesson === 'string' ? v.record.lesson : null);

function timeText(v: TimelineVersion): string {
  if (v.unobserved) return unobservedText(v.unobserved);
  return v.to === null ? `since ${whenToSecond(v.from)}` : `${whenToSecond(v.from)} → ${whenToSecond(v.to)}`;
}

function endText(v: TimelineVersion): string {
  if (v.end) return `ended: ${v.end.text}${v.end.inference ? ' (an inference: the stores do not say it)' : ''}`;
  if (v.to === null) return 'still the version in the store';
  return `ended ${whenToSecond(v.to)}`;
}

/** What differs from the version before: its file, then each field. */
function changeLines(before: TimelineVersion, v: TimelineVersion): string[] {
  const lines = before.file !== v.file ? [`moved from the ${KIND_WORDS[before.kind]} (${before.file}) to the ${KIND_WORDS[v.kind]}`] : [];
  lines.push(...v.fields.flatMap(fieldDiffLines));
  if (lines.length) return lines;
  // The same bytes again after the entry had left, or a rewrite that changed only spacing or key order.
  return [before.end && before.end.code !== 'changed' ? 'the same line, back in the store' : 'the line changed, no field did (spacing or key order)'];
}

/** The moment a view shows, and when history began (a baseline version holds from then, as history.asOf counts it). */
export interface AsOfMoment {
  at: string;
  historyBegan: string | null;
}

function heldAt(v: TimelineVersion, at: number, began: number): boolean {
  const from = v.origin === 'baseline' && Number.isFinite(began) ? Math.min(began, Date.parse(v.from)) : Date.parse(v.from);
  return from <= at && (v.to === null || Date.parse(v.to) > at);
}

/** Newest first; `asOf` marks the version in place at that moment. */
export function timelineText(versions: readonly TimelineVersion[], asOf?: AsOfMoment): VersionText[] {
  const at = asOf ? Date.parse(asOf.at) : NaN;
  const began = asOf?.historyBegan ? Date.parse(asOf.historyBegan) : NaN;
  return versions
    .map((v, i) => ({
      key: `${i}:${v.sha256}:${v.from}`,
      time: timeText(v),
      place: placeText(v),
      file: v.file,
      changes: i === 0 ? ['the first version history holds'] : changeLines(versions[i - 1]!, v),
      lesson: i === 0 || lessonOf(v) !== lessonOf(versions[i - 1]!) ? lessonText(lessonOf(v)) : null,
      origin: ORIGIN_WORDS[v.origin],
      end: endText(v),
      current: !Number.isNaN(at) && heldAt(v, at, began),
    }))
    .reverse();
}

/** Said once under the list: where history's knowledge of this entry starts. */
export function historyStartText(versions: readonly TimelineVersion[]): string | null {
  const first = versions[0];
  if (!first) return null;
  if (first.origin === 'baseline') return `History began ${whenToSecond(first.from)}: earlier versions of this entry are not known.`;
  if (first.origin === 'catch-up') return `First found ${first.unobserved ? first.unobserved.text : whenToSecond(first.from)}.`;
  return `First seen ${whenToSecond(first.from)}, as it was written.`;
}

/** Said when there are no versions: history never saw this id. */
export const NO_HISTORY_TEXT = 'History has no version of this entry: it has not been seen in any store since history began.';
