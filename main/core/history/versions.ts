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

  /** Stores a version once (content-addressed), as a delta against `previousSha` when that is smaller. */
  write(sha: string, entryId: string, text: string, previousSha: string | null, now: number): void {
    if (this.depthOf.get(sha)) return;
    let previous: { sha: string; text: string; depth: number } | null = null;
    if (previousSha && previousSha !== sha) {
      const prevText = this.text(previousSha);
      const depth = (this.depthOf.get(previousSha) as { depth: number } | undefined)?.depth;
      if (prevText !== null && depth !== undefined) previous = { sha: previousSha, text: prevText, depth };
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
