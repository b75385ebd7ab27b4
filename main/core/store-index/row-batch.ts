import type { StoreDef, StoreTable, StoreTier } from '../stores/catalog';
import type { StoreRecord } from '../stores/read-store-file';
import { entryRow, epochMs, eventRow, genericRow, receiptRow } from './rows';
import { lineHash } from '../stores/line-hash';

/** The hash of a record's line (taken from its bytes as it was read, else from its text). */
const hashOf = (r: StoreRecord): number => r.hash ?? lineHash(r.text);

/**
 * Columns whose value is the same for every row of a batch (a batch holds rows of one file of one
 * store): bound once per INSERT statement rather than once per row (binding a value costs about as
 * much as SQLite's own work on it).
 */
export const BATCH_COLUMNS: Record<StoreTable, readonly string[]> = {
  entries: ['file_id', 'store_key', 'tier', 'collection'],
  events: ['file_id', 'store_key'],
  receipts: ['file_id', 'store_key'],
  records: ['file_id', 'store_key'],
};

/** Columns written per row of each table, in the order `add` pushes them. */
export const ROW_COLUMNS: Record<StoreTable, readonly string[]> = {
  entries: [
    'line', 'offset', 'bytes', 'hash', 'id', 'status', 'category', 'scope', 'priority', 'confidence', 'project',
    'created_at', 'updated_at', 'phases_alive', 'max_phases', 'encounter_score', 'shown_count', 'lesson', 'tags', 'flagged', 'duplicate',
  ],
  events: ['line', 'offset', 'bytes', 'hash', 'kind', 'ts_ms', 'session_id', 'agent', 'tool', 'knowledge_id', 'trace_id', 'phase', 'flagged'],
  receipts: ['line', 'offset', 'bytes', 'hash', 'type', 'ts', 'trace_id', 'flagged'],
  records: ['line', 'offset', 'rec_id', 'kind', 'ts', 'flagged', 'duplicate'],
};

/** A batch's rows as plain data (structured-clonable). */
export interface BatchData {
  table: StoreTable;
  /** The BATCH_COLUMNS values (empty until a row is added). */
  constants: unknown[];
  values: unknown[];
  rows: number;
  tags: (number | string)[];
  fts: string[];
  raws: string[];
}

/**
 * The rows one pass gathers for one table before they are written in a transaction: every
 * column value in one flat array (the width of the table per row) rather than an object or array
 * per record, so a batch is a few big arrays the collector barely has to look at. Entries also
 * carry their tags (row index, tag pairs) and full-text fields (4 per row); whole-file records
 * their text.
 */
export class RowBatch {
  readonly width: number;
  /** The values of the table's BATCH_COLUMNS, set by the first row. */
  constants: unknown[] = [];
  values: unknown[] = [];
  rows = 0;
  /** Entries: row index within the batch, then the tag, for every tag. */
  tags: (number | string)[] = [];
  /** Entries: lesson, tags, triggers, actions of every row. */
  fts: string[] = [];
  /** Records: the text of every row (kept in records_raw). */
  raws: string[] = [];

  constructor(readonly table: StoreTable) {
    this.width = ROW_COLUMNS[table].length;
  }

  /** The batch as plain data, to post to another thread (see parse-worker.ts). */
  data(): BatchData {
    return { table: this.table, constants: this.constants, values: this.values, rows: this.rows, tags: this.tags, fts: this.fts, raws: this.raws };
  }

  /** A batch over data posted by another thread. */
  static of(data: BatchData): RowBatch {
    const batch = new RowBatch(data.table);
    batch.constants = data.constants;
    batch.values = data.values;
    batch.rows = data.rows;
    batch.tags = data.tags;
    batch.fts = data.fts;
    batch.raws = data.raws;
    return batch;
  }

  clear(): void {
    this.constants = [];
    this.values = [];
    this.rows = 0;
    this.tags = [];
    this.fts = [];
    this.raws = [];
  }

  /** Extracts the column values of a record (the parsed object is not kept past this call). */
  add(def: StoreDef, tier: StoreTier, fileId: number, r: StoreRecord): void {
    const flagged = r.problems.length > 0 || r.duplicateOfLine !== null ? 1 : 0;
    const duplicate = r.duplicateOfLine !== null ? 1 : 0;
    const v = this.values;
    switch (this.table) {
      case 'entries': {
        const collection = def.collection ?? 'active';
        const e = entryRow(r, tier, collection);
        if (this.rows === 0) this.constants = [fileId, def.key, tier, collection];
        v.push(r.line, r.offset, r.bytes, hashOf(r), e.id, e.status, e.category, e.scope, e.priority, e.confidence, e.project);
        v.push(e.created_at, e.updated_at, e.phases_alive, e.max_phases, e.encounter_score, e.shown_count, e.lesson, JSON.stringify(e.tags), flagged, duplicate);
        for (const tag of e.tags) this.tags.push(this.rows, tag);
        this.fts.push(e.lesson ?? '', e.tags.join(' '), e.triggers, e.actions);
        break;
      }
      case 'events': {
        const e = eventRow(r, def.key);
        if (this.rows === 0) this.constants = [fileId, def.key];
        v.push(r.line, r.offset, r.bytes, hashOf(r), e.kind, epochMs(e.ts), e.session_id, e.agent, e.tool, e.knowledge_id, e.trace_id, e.phase, flagged);
        break;
      }
      case 'receipts': {
        const e = receiptRow(r);
        if (this.rows === 0) this.constants = [fileId, def.key];
        v.push(r.line, r.offset, r.bytes, hashOf(r), e.type, e.ts, e.trace_id, flagged);
        break;
      }
      default: {
        const e = genericRow(r);
        if (this.rows === 0) this.constants = [fileId, def.key];
        v.push(r.line, r.offset, e.rec_id, e.kind, e.ts, flagged, duplicate);
        this.raws.push(r.text);
      }
    }
    this.rows++;
  }
}
