import { ConsoleError } from '../../../shared/contract';
import type { HistoryDb } from './history-db';

const iso = (ms: number) => new Date(ms).toISOString();

/** `09:12`, in UTC (the CLI and views show ISO times; a gap's text stays short). */
export const clockTime = (ms: number) => iso(ms).slice(0, 16).replace('T', ' ');

/** "changed between 09:12 and 14:40 (not observed in between)". */
export const unobservedText = (verb: string, from: number, to: number) => `${verb} between ${clockTime(from)} and ${clockTime(to)} (not observed in between)`;

export interface MomentContext {
  db: HistoryDb;
  /** This session's "last looked" (the value when the workspace was opened), or null. */
  lastLooked: number | null;
  now: number;
}

/** A moment's time: ISO, `now`, `last-looked` or `phase:N` (see shared/contract/history.ts). */
export function resolveMoment(moment: string, ctx: MomentContext): number {
  if (moment === 'now') return ctx.now;
  if (moment === 'last-looked') {
    if (ctx.lastLooked !== null) return ctx.lastLooked;
    // Never looked before: since history began (the recorder may have run without anyone looking).
    const began = (ctx.db.prepare('SELECT min(started_at) AS at FROM observations').get() as { at: number | null }).at;
    return began ?? ctx.now;
  }
  const phase = /^phase:(\d+)$/.exec(moment);
  if (phase) {
    const row = ctx.db.prepare('SELECT at FROM moments WHERE name = ?').get(`phase:${Number(phase[1])}`) as { at: number } | undefined;
    if (!row) throw new ConsoleError('not_found', `History has no completion of phase ${Number(phase[1])} (phases come from outcome events in knowledge-events.jsonl and curator_compliance events in events.jsonl)`);
    return row.at;
  }
  const at = Date.parse(moment);
  if (Number.isNaN(at)) throw new ConsoleError('invalid_input', `Not a moment: ${moment}`);
  return at;
}

/** Shorter silences are heartbeats not yet written (an observation's end is updated every 30 s). */
const GAP_MIN_MS = 60_000;

/** Stretches of [from, to] when no observation (console or recorder) was running. */
export function gapsBetween(db: HistoryDb, from: number, to: number): { from: number; to: number }[] {
  const began = (db.prepare('SELECT min(started_at) AS at FROM observations').get() as { at: number | null }).at;
  // Before history began nothing is known: that is not a gap but the start of history.
  if (began === null || began >= to) return [];
  const rows = db.prepare('SELECT started_at AS s, ended_at AS e FROM observations WHERE ended_at >= ? AND started_at <= ? ORDER BY started_at').all(from, to) as { s: number; e: number }[];
  const gaps: { from: number; to: number }[] = [];
  let cursor = Math.max(from, began);
  for (const row of rows) {
    if (row.s - cursor > GAP_MIN_MS) gaps.push({ from: cursor, to: Math.min(row.s, to) });
    cursor = Math.max(cursor, row.e);
  }
  if (to - cursor > GAP_MIN_MS) gaps.push({ from: cursor, to });
  return gaps;
}

export { iso };
