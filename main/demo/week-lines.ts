/**
 * Building blocks of the scripted week (week-script.ts): a JSONL store as lines, an append-only log as the
 * prefix written by a moment, and an entry store as entries that come, go and change over time.
 */

export type Rec = Record<string, unknown>;

/** One store file over the week: its bytes at any moment (at the week's end, the generator's own bytes). */
export interface ScriptedFile {
  path: string;
  at(t: number): string;
}

export const splitLines = (text: string): string[] => text.split('\n').filter((line) => line.length > 0);
export const joinLines = (lines: readonly string[]): string => lines.map((line) => `${line}\n`).join('');

/** A line's time field in epoch ms (NaN when absent or unparseable). */
export function lineTime(line: string, field: string): number {
  try {
    const value = (JSON.parse(line) as Rec)[field];
    return typeof value === 'string' ? Date.parse(value) : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/**
 * An append-only log (events, application, rejected fingerprints, quarantine sidecars): at a moment it holds
 * the lines written by then, as the plugin appends them (docs/plugin-formats.md#temp-and-rename). A log not
 * ordered by its time field is left whole from the start (nothing here can say when its lines came).
 */
export function appendOnly(path: string, text: string, field: string): ScriptedFile & { times: number[] } {
  const lines = splitLines(text);
  const times = lines.map((line) => lineTime(line, field));
  const ordered = times.every((t, i) => !Number.isNaN(t) && (i === 0 || t >= (times[i - 1] as number)));
  return {
    path,
    times: ordered ? times : [],
    at(t) {
      if (!ordered) return text;
      const count = times.findIndex((time) => time > t);
      return count === -1 ? text : joinLines(lines.slice(0, count));
    },
  };
}

/** A change to an entry at a moment, given as how to undo it (the generator wrote the entry as it is after). */
export interface Patch {
  at: number;
  undo(record: Rec): Rec;
}

/** One entry of an entry store over the week. */
export interface TrackedEntry {
  id: string;
  /** The line as the generator wrote it, or (for an entry gone by the end) as it was when it left. */
  line: string;
  /** From when it is in the file (-Infinity: from before the week). */
  from: number;
  /** Until when (Infinity: still there at the end). */
  until: number;
  patches: Patch[];
  /** The stored counters at a moment (null: they do not move). */
  counters: ((t: number) => Rec | null) | null;
}

export function tracked(line: string, from = Number.NEGATIVE_INFINITY, until = Number.POSITIVE_INFINITY): TrackedEntry {
  return { id: String((JSON.parse(line) as Rec).id), line, from, until, patches: [], counters: null };
}

/** The entry's line at `t`: its own bytes unless an undone change or moved counters make it differ. */
export function lineAt(entry: TrackedEntry, t: number): string {
  const undone = entry.patches.filter((p) => t < p.at).sort((a, b) => b.at - a.at);
  const counters = entry.counters?.(t) ?? null;
  if (undone.length === 0 && counters === null) return entry.line;
  let record = JSON.parse(entry.line) as Rec;
  for (const patch of undone) record = patch.undo(record);
  if (counters) record = withCounters(record, counters);
  // Entries are only patched when their line is exactly JSON.stringify of its record (week-script.ts checks).
  return JSON.stringify(record);
}

const COUNTERS = ['shown_count', 'acknowledged_count', 'applied_explicit_count', 'ignored_count', 'violated_count', 'contradicted_count', 'succeeded_after_shown_count', 'failed_after_shown_count'];

/** The stored counters replaced by a rollup's (same keys, same order: only the numbers move). */
function withCounters(record: Rec, rollup: Rec): Rec {
  const outcomes = { ...(record.retrieval_outcomes as Rec) };
  for (const key of COUNTERS) if (key in outcomes) outcomes[key] = rollup[key];
  const next: Rec = { ...record, retrieval_outcomes: outcomes };
  for (const key of ['last_applied_at', 'last_acknowledged_at']) {
    if (!(key in record)) continue;
    if (typeof rollup[key] === 'string') next[key] = rollup[key];
    else delete next[key];
  }
  return next;
}

/** Whether a record's stored counters are exactly this rollup (so replaying the rollup over time is faithful). */
export function countersMatch(record: Rec, rollup: Rec): boolean {
  const outcomes = record.retrieval_outcomes as Rec | undefined;
  if (!outcomes || !COUNTERS.every((key) => outcomes[key] === rollup[key])) return false;
  return ['last_applied_at', 'last_acknowledged_at'].every((key) => !(key in record) || record[key] === rollup[key]);
}

/** An entry store at a moment: the entries in it then, in file order. */
export function entryStore(path: string, entries: readonly TrackedEntry[]): ScriptedFile {
  return { path, at: (t) => joinLines(entries.filter((e) => e.from <= t && t < e.until).map((e) => lineAt(e, t))) };
}
