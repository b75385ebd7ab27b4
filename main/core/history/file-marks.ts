import type Database from 'better-sqlite3';
import type { HistoryDb } from './history-db';

/** How a sighting came to be known: history began with it, found on opening, or watched happen. */
export type PassOrigin = 'baseline' | 'catch-up' | 'live';

/** What a pass over one file states about the lines it records: how, when, and since when (unobserved). */
export interface PassFacts {
  origin: PassOrigin;
  now: number;
  /** The change happened between this time and `now` (null: at `now`, or, for a baseline, before history began). */
  after: number | null;
}

/** Thrown inside a write when another recorder has already recorded a later state of the file. */
export class StaleRead extends Error {}

interface MarkRow {
  at: number | null;
  pass_origin: PassOrigin | null;
  pass_at: number | null;
  pass_after: number | null;
}

/**
 * How far history has recorded each store file (`file_marks`): the state (mtime) of the file its last
 * pass read and, until that pass has recorded the file to its end, what the pass was stating.
 *
 * A pass is many transactions (slices, pages). One stopped part-way — the lease lost, the console
 * quit or killed — leaves its mark unfinished, so the next catch-up reads the file again instead of
 * taking it as recorded (it once did: the lines the pass had not reached stayed out of history until
 * the file next changed, and then appeared as new). If the file is still the state the stopped pass
 * read, the new pass states what that one would have (a first recording's lines stay the baseline);
 * if the file changed meanwhile, what the stopped pass had not recorded is known only to have been
 * there at some time since it (or since its own lower bound): it is recorded as found on opening,
 * between then and now, never as watched.
 */
export class FileMarks {
  private readonly read: Database.Statement;
  private readonly write: Database.Statement;
  private readonly done: Database.Statement;

  constructor(db: HistoryDb) {
    this.read = db.prepare('SELECT index_ingested_at AS at, pass_origin, pass_at, pass_after FROM file_marks WHERE path = ?');
    this.write = db.prepare(
      `INSERT INTO file_marks(path, index_ingested_at, pass_origin, pass_at, pass_after) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(path) DO UPDATE SET index_ingested_at = excluded.index_ingested_at, pass_origin = excluded.pass_origin, pass_at = excluded.pass_at, pass_after = excluded.pass_after`,
    );
    this.done = db.prepare('UPDATE file_marks SET pass_origin = NULL, pass_at = NULL, pass_after = NULL WHERE path = ?');
  }

  /**
   * Inside the first write of a pass over the file as read at `mtime`: claims the file (see `claim`)
   * and returns what the pass states — `current`, or, taking over from a pass that stopped part-way,
   * what follows from that one; `resumes` then says the pass must read the whole file, whatever
   * part of it its change named.
   */
  begin(path: string, mtime: number | null, current: PassFacts): { pass: PassFacts; resumes: boolean } {
    const mark = this.checked(path, mtime);
    const resumes = Boolean(mark?.pass_origin);
    const pass = resumes ? resumed({ origin: mark!.pass_origin!, now: mark!.pass_at!, after: mark!.pass_after }, mark!.at === mtime, current) : current;
    this.mark(path, mtime, pass);
    return { pass, resumes };
  }

  /**
   * Inside every write of a pass: refuses to go on when another recorder (with its own index) has
   * already recorded a later state of the file, else marks the file as being recorded up to ours.
   * The file's mtime, not the time of ingest, orders the states: a slower process may finish
   * ingesting an older read after a faster one ingested a newer one.
   */
  claim(path: string, mtime: number | null, pass: PassFacts): void {
    this.checked(path, mtime);
    this.mark(path, mtime, pass);
  }

  /** Inside the last write of a pass (after `claim`): the file is recorded to its end in that state. */
  finish(path: string): void {
    this.done.run(path);
  }

  /** Whether a pass over the file as read at `mtime` has finished (a catch-up then leaves it alone). */
  upToDate(path: string, mtime: number | null): boolean {
    const mark = this.read.get(path) as MarkRow | undefined;
    return mark !== undefined && mark.at === mtime && mark.pass_origin === null;
  }

  private checked(path: string, mtime: number | null): MarkRow | undefined {
    const mark = this.read.get(path) as MarkRow | undefined;
    if (mark?.at != null && mtime !== null && mark.at > mtime) throw new StaleRead();
    return mark;
  }

  private mark(path: string, mtime: number | null, pass: PassFacts): void {
    this.write.run(path, mtime, pass.origin, pass.now, pass.after);
  }
}

/**
 * What a pass states when it takes over from one that stopped part-way: the same, over the same state
 * of the file; over a later state, found on opening since the stopped pass's lower bound (a baseline's
 * or a watched pass's own time), since its lines may have been there all along or come after. Two
 * exceptions: a baseline stays one (history has no earlier time to speak of), and a watched pass
 * retried while the console kept watching (the store changed again under it) stays watched.
 */
export function resumed(stopped: PassFacts, sameState: boolean, current: PassFacts): PassFacts {
  if (sameState) return stopped;
  if (current.origin === 'baseline' || (current.origin === 'live' && stopped.origin === 'live')) return current;
  const since = stopped.after ?? stopped.now;
  return { origin: 'catch-up', now: current.now, after: Math.min(since, current.after ?? current.now) };
}
