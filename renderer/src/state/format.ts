/** Display helpers shared by every view (text only, never HTML). */
export const fixed = (value: number | null | undefined, digits = 2): string => (value === null || value === undefined || !Number.isFinite(value) ? '—' : value.toFixed(digits));

export const count = (value: number | null | undefined): string => (value === null || value === undefined ? '—' : String(value));

/** One formatter for every count: `toLocaleString` builds a new one per call (~40 µs, per table cell). */
const GROUPED = new Intl.NumberFormat('en-US');

/**
 * `1 session`, `2 sessions`, `0 entries`: the one way a count meets its noun. `many` defaults to
 * the noun plus "s"; irregular plurals (entry → entries) are passed.
 */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${GROUPED.format(n)} ${n === 1 ? one : many}`;
}

/**
 * THE clock of the console: `2026-11-29 14:03 UTC`, for every time in every view. The stores and
 * OpenCode write UTC and operators compare across machines, so no view shows local or 12-hour
 * times, and the zone is always named. Accepts an ISO string or epoch milliseconds; text that is
 * not a time is shown as it is (store text, never guessed at).
 */
export function when(time: string | number | null | undefined): string {
  if (time === null || time === undefined || time === '') return '—';
  const t = typeof time === 'number' ? time : Date.parse(time);
  if (!Number.isFinite(t)) return String(time);
  return `${new Date(t).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function signed(value: number): string {
  return `${value > 0 ? '+' : ''}${value.toFixed(2)}`;
}

/** "archives in 2 phases" / "archives at the next phase" / "deleted in 1 phase". */
export function expiryText(expiry: { action: 'archived' | 'deleted'; phasesLeft: number } | null | undefined): string {
  if (!expiry) return '—';
  const verb = expiry.action === 'archived' ? 'archives' : 'deleted';
  if (expiry.phasesLeft <= 0) return `${verb} at the next sweep (overdue)`;
  return `${verb} in ${plural(expiry.phasesLeft, 'phase')}`;
}
