import type { EntryPosition, IndexedEntryLine, KnowledgeSource } from '../store-index/knowledge-source';
import type { TimeSlicer } from '../platform/util/time-slicer';
import { ChunkedList, type ReadList } from './chunked-list';
import { toSourceEntry } from './from-index';
import type { SourceEntry } from './model-types';
import { RidTable } from './rid-table';

/** Rows read (and parsed + checked) per query: a few milliseconds of work each. */
const LOAD_BATCH = 250;
/** Positions read per query when putting entries in file order. */
const ORDER_BATCH = 10_000;

interface RefreshStats {
  /** Rids parsed and checked by the last refresh (new lines only). */
  parsed: number[];
  /** Rids dropped by the last refresh (their lines are gone from the index). */
  dropped: number;
}

/** What the last refresh changed, for views that can be updated rather than rebuilt. */
export interface EntryDelta {
  /** The entries the delta applies to (the cache's list before the refresh). */
  from: ReadList<SourceEntry>;
  /** Entries added, in rid order. */
  added: readonly SourceEntry[];
  dropped: number;
  /** The entries of `from` that are gone (a rewritten file's old lines, a deleted file's). */
  removed: readonly SourceEntry[];
  /** File order of two cached entries (file, then line). */
  compare: (a: SourceEntry, b: SourceEntry) => number;
}

/**
 * Parsed and checked entries, kept by rid across model rebuilds. A rid names one line for the
 * life of the index (AUTOINCREMENT: see index/schema.ts), so a cached entry is never out of date:
 * a refresh parses only rows above the highest rid seen, and drops rids the index no longer has
 * (a rewritten file comes back as new rids). Reads are small batches between which the event
 * loop is given back.
 *
 * File order is kept per file: when nothing was removed, new rows are appended lines (a file's
 * rows are always inserted in line order), so they go to the end of their file's list and no
 * position is read again; after a removal the order is read back from the index.
 */
export class EntryCache {
  private readonly byRid = new RidTable<SourceEntry>();
  /** File id → its entries in line order. */
  private byFile = new Map<number, SourceEntry[]>();
  private highestRid = 0;
  /** Every cached entry, in file order (file, then line). */
  entries: ChunkedList<SourceEntry> = ChunkedList.empty();
  /** Bumped whenever the set of entries changes; derived results are keyed by it. */
  generation = 0;
  lastRefresh: RefreshStats = { parsed: [], dropped: 0 };
  lastDelta: EntryDelta = { from: ChunkedList.empty(), added: [], dropped: 0, removed: [], compare: (a, b) => this.compare(a, b) };

  /** File order of two cached entries. */
  compare(a: SourceEntry, b: SourceEntry): number {
    return (a.fileId ?? 0) - (b.fileId ?? 0) || a.line - b.line;
  }

  get(rid: number): SourceEntry | undefined {
    return this.byRid.get(rid);
  }

  get size(): number {
    return this.byRid.size;
  }

  /** Brings the cache in line with the index; true when the set of entries changed. */
  async refresh(source: KnowledgeSource, slicer: TimeSlicer): Promise<boolean> {
    const parsed: number[] = [];
    const added: SourceEntry[] = [];
    const add = (rows: IndexedEntryLine[]) => {
      for (const row of rows) {
        const entry = toSourceEntry(row);
        this.byRid.set(entry);
        parsed.push(row.rid);
        added.push(entry);
        if (row.rid > this.highestRid) this.highestRid = row.rid;
      }
    };
    for (;;) {
      const rows = source.entriesAfter(this.highestRid, LOAD_BATCH);
      if (rows.length === 0) break;
      add(rows);
      await slicer.yield();
    }

    const removed: SourceEntry[] = [];
    if (source.entryCount() === this.byRid.size) {
      for (const entry of added) {
        const list = this.byFile.get(entry.fileId!);
        if (list) list.push(entry);
        else this.byFile.set(entry.fileId!, [entry]);
      }
    } else {
      removed.push(...(await this.reorder(source, slicer, add)));
    }
    const dropped = removed.length;
    this.lastRefresh = { parsed, dropped };
    const gone = new Set(removed);
    const addedEntries = dropped ? added.filter((entry) => !gone.has(entry)) : added;
    // Lines added and gone again within this refresh were never in `from`.
    const addedNow = new Set(added);
    this.lastDelta = { from: this.entries, added: addedEntries, dropped, removed: dropped ? removed.filter((entry) => !addedNow.has(entry)) : removed, compare: this.lastDelta.compare };
    const changed = parsed.length > 0 || dropped > 0;
    if (changed) {
      // A few appended lines go to the end of their file's place (one chunk copied each); more, or
      // any removal, and the list is made again from the files' lists.
      this.entries = dropped === 0 && addedEntries.length <= 64 ? this.withAppended(addedEntries) : ChunkedList.from(this.inFileOrder());
      this.generation++;
    }
    return changed;
  }

  /** The entries with lines appended to their files (each after every line of its file, so at its file-order place). */
  private withAppended(added: readonly SourceEntry[]): ChunkedList<SourceEntry> {
    let entries = this.entries;
    for (const entry of added) entries = entries.insertAt(entries.upperBound(entry, (a, b) => this.compare(a, b)), entry);
    return entries;
  }

  /** Every cached entry in file order: a plain loop (flatMap costs far more per item). */
  private inFileOrder(): SourceEntry[] {
    const files = [...this.byFile.keys()].sort((a, b) => a - b);
    let total = 0;
    for (const fileId of files) total += this.byFile.get(fileId)!.length;
    const out: SourceEntry[] = new Array(total);
    let at = 0;
    for (const fileId of files) for (const entry of this.byFile.get(fileId)!) out[at++] = entry;
    return out;
  }

  /** Reads file order back from the index (narrow rows), loading rows that arrived meanwhile; returns the entries dropped. */
  private async reorder(source: KnowledgeSource, slicer: TimeSlicer, add: (rows: IndexedEntryLine[]) => void): Promise<SourceEntry[]> {
    const byFile = new Map<number, SourceEntry[]>();
    const present = new Set<number>();
    let after: EntryPosition | null = null;
    for (;;) {
      const positions = source.entryOrder(after, ORDER_BATCH);
      if (positions.length === 0) break;
      const missing = positions.filter((p) => !this.byRid.has(p.rid)).map((p) => p.rid);
      if (missing.length) add(source.entriesByRid(missing));
      for (const position of positions) {
        const entry = this.byRid.get(position.rid);
        if (!entry) continue; // deleted between the two reads: the next refresh settles it
        const list = byFile.get(position.fileId);
        if (list) list.push(entry);
        else byFile.set(position.fileId, [entry]);
        present.add(position.rid);
      }
      after = positions[positions.length - 1]!;
      await slicer.yield();
    }
    const dropped = this.byRid.removeWhere((entry) => !present.has(entry.rid));
    this.byFile = byFile;
    return dropped;
  }
}
