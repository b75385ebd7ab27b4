import type { HistoryDb } from './history-db';
import { decodeVersion, encodeVersion } from './version-codec';

interface VersionRow {
  base_sha: string | null;
  depth: number;
  data: Buffer;
}

/** Reads and writes `versions`, with a small cache of decoded lines (chains share their bases). */
export class VersionStore {
  private readonly cache = new Map<string, string>();
  private readonly get;
  private readonly put;
  private readonly depthOf;

  constructor(private readonly db: HistoryDb) {
    this.get = db.prepare('SELECT base_sha, depth, data FROM versions WHERE sha = ?');
    this.depthOf = db.prepare('SELECT depth FROM versions WHERE sha = ?');
    this.put = db.prepare('INSERT OR IGNORE INTO versions(sha, entry_id, base_sha, depth, size, data, first_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
  }

  /** The line of a version, or null when history does not hold it. */
  text(sha: string): string | null {
    const cached = this.cache.get(sha);
    if (cached !== undefined) return cached;
    const row = this.get.get(sha) as VersionRow | undefined;
    if (!row) return null;
    const base = row.base_sha === null ? null : this.text(row.base_sha);
    if (row.base_sha !== null && base === null) return null;
    const text = decodeVersion(row.data, base);
    this.remember(sha, text);
    return text;
  }

  /**
   * Stores a version once (content-addressed), as a delta when that is smaller: against the plain
   * version the previous one is a delta of (or the previous one itself when it is plain), so a read
   * inflates at most two lines however long the entry's history (as-of and Changes decode many).
   */
  write(sha: string, entryId: string, text: string, previousSha: string | null, now: number): void {
    if (this.depthOf.get(sha)) return;
    let previous: { sha: string; text: string; depth: number } | null = null;
    if (previousSha && previousSha !== sha) {
      const prev = this.get.get(previousSha) as VersionRow | undefined;
      const keyframe = prev && prev.depth > 0 && prev.base_sha !== null ? prev.base_sha : previousSha;
      const keyText = this.text(keyframe);
      const depth = (this.depthOf.get(keyframe) as { depth: number } | undefined)?.depth;
      if (keyText !== null && depth !== undefined && keyframe !== sha) previous = { sha: keyframe, text: keyText, depth };
    }
    const encoded = encodeVersion(text, previous);
    this.put.run(sha, entryId, encoded.base, encoded.depth, Buffer.byteLength(text), encoded.data, now);
    this.remember(sha, text);
  }

  private remember(sha: string, text: string): void {
    if (this.cache.size >= 512) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(sha, text);
  }
}
