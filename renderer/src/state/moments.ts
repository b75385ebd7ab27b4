import type { MomentsOutput } from '../../../shared/contract/history';
import { when } from './format';

/**
 * Moments as the console names and reads them, for every view that picks one (the History
 * area's range, Knowledge "as of"): `now`, `last-looked`, `phase:N` or an ISO date-time (the
 * contract's Moment). Times are UTC, as every time in the console; the date-time field is read
 * as UTC too. Pure: tested without a page.
 */

/** The same rule as the contract's Moment: `now`, `last-looked`, `phase:N` or an ISO date-time. */
export function isMoment(value: string): boolean {
  if (value.length === 0 || value.length > 64) return false;
  if (value === 'now' || value === 'last-looked' || /^phase:\d{1,6}$/.test(value)) return true;
  return /^\d{4}-\d{2}-\d{2}/.test(value) && !Number.isNaN(Date.parse(value));
}

/** Whether a moment is a date-time (rather than now, when I last looked or a phase). */
export const isDateMoment = (moment: string): boolean => /^\d{4}-/.test(moment);

/**
 * A `datetime-local` value (`2026-12-01T23:40` or with seconds) read as UTC to an ISO moment;
 * null when it is not a date-time.
 */
export function dateTimeToMoment(value: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/.exec(value.trim());
  if (!match) return null;
  const [y, mo, d, h, mi, s] = match.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const at = Date.UTC(y, mo - 1, d, h, mi, s);
  const date = new Date(at);
  // Date.UTC rolls 2026-02-31 over to March: such a day is not a date.
  if (Number.isNaN(at) || date.getUTCDate() !== d || date.getUTCMonth() !== mo - 1 || date.getUTCHours() !== h || date.getUTCMinutes() !== mi) return null;
  return date.toISOString();
}

/** An ISO moment as a `datetime-local` value in UTC, to seconds; '' for any other moment. */
export function momentToDateTime(moment: string): string {
  if (!isDateMoment(moment)) return '';
  const at = Date.parse(moment);
  return Number.isNaN(at) ? '' : new Date(at).toISOString().slice(0, 19);
}

/** `2026-12-01 23:40:12 UTC`: a moment to the second (changes a minute apart must stay apart). */
export function whenToSecond(iso: string | null | undefined): string {
  if (!iso) return '—';
  const at = Date.parse(iso);
  return Number.isNaN(at) ? iso : `${new Date(at).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** How an operator says the moment in a sentence: "when you last looked", "when phase 4 completed", "a chosen time". */
export function momentLabel(moment: string): string {
  if (moment === 'now') return 'now';
  if (moment === 'last-looked') return 'when you last looked';
  const phase = /^phase:(\d+)$/.exec(moment);
  if (phase) return `when phase ${Number(phase[1])} completed`;
  return 'a chosen time';
}

/** A moment as a picker lists it, with its time where the console knows it. */
export function momentOptionText(moment: string, moments: MomentsOutput | undefined): string {
  if (moment === 'now') return 'now';
  if (moment === 'last-looked') {
    if (!moments) return 'when you last looked';
    if (moments.lastLooked) return `when you last looked (${when(moments.lastLooked)})`;
    return `when you last looked (never here before: since history began${moments.historyBegan ? `, ${when(moments.historyBegan)}` : ''})`;
  }
  const phase = /^phase:(\d+)$/.exec(moment);
  if (phase) {
    const known = moments?.phases.find((p) => p.moment === moment);
    return known ? `phase ${Number(phase[1])} completed (${when(known.at)})` : `phase ${Number(phase[1])} completed`;
  }
  return when(moment);
}
