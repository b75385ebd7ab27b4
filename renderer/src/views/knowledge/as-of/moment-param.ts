import { Moment } from '../../../../../shared/contract/history';

/**
 * The Knowledge view's "as of" moment lives in the URL (`#/knowledge?asOf=phase:4`), like its
 * filters, so a historical view can be shared and survives a reload. No `asOf` (or `asOf=now`)
 * is the live table.
 */
export const AS_OF_PARAM = 'asOf';

export interface MomentParam {
  /** The moment to show, or null for live. */
  moment: string | null;
  /** The param as given when it is not a moment (the view says so and shows live). */
  invalid: string | null;
}

export function momentFromParams(params: Readonly<Record<string, string>>): MomentParam {
  const raw = params[AS_OF_PARAM]?.trim();
  if (!raw || raw === 'now') return { moment: null, invalid: null };
  return Moment.safeParse(raw).success ? { moment: raw, invalid: null } : { moment: null, invalid: raw.slice(0, 80) };
}

/** The param change that shows `moment` (null or `now`: back to live). */
export function momentParam(moment: string | null): Record<string, string | null> {
  return { [AS_OF_PARAM]: moment === null || moment === 'now' ? null : moment };
}

/** How an operator says the moment: "when you last looked", "phase 4", "a chosen time". */
export function momentLabel(moment: string): string {
  if (moment === 'now') return 'now';
  if (moment === 'last-looked') return 'when you last looked';
  const phase = /^phase:(\d+)$/.exec(moment);
  if (phase) return `when phase ${Number(phase[1])} completed`;
  return 'a chosen time';
}

/**
 * A `datetime-local` value (`2026-12-01T23:40` or with seconds) read as UTC — the console shows
 * every time in UTC — to an ISO moment; null when it is not a date-time.
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

/** An ISO moment as a `datetime-local` value in UTC, to seconds (the picker's starting value). */
export function momentToDateTime(iso: string): string {
  const at = Date.parse(iso);
  return Number.isNaN(at) ? '' : new Date(at).toISOString().slice(0, 19);
}

/** `2026-12-01 23:40:12 UTC`: a moment to the second (changes a minute apart must stay apart). */
export function whenToSecond(iso: string | null | undefined): string {
  if (!iso) return '—';
  const at = Date.parse(iso);
  return Number.isNaN(at) ? iso : `${new Date(at).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
