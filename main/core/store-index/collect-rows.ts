import type { StoreDef, StoreTier } from '../stores/catalog';
import type { JsonlDefect } from '../stores/jsonl-reader';
import { readStoreFile } from '../stores/read-store-file';
import { RowBatch } from './row-batch';

/** Records written per transaction (the rows of a batch are a few flat arrays). */
export const BATCH_RECORDS = 2000;
/**
 * Defect rows stored per file, over every pass (a flood of bad lines appended a few at a time
 * once stored them all); the count on the file row stays exact.
 */
export const MAX_STORED_DEFECTS = 10_000;

export interface CollectOptions {
  fromOffset: number;
  firstLine: number;
  seenIds: Map<string, number>;
  confineTo?: readonly string[];
  /** Defect rows already stored for the file's earlier lines (counted against MAX_STORED_DEFECTS). */
  storedDefects: number;
}

export type FileRead = Awaited<ReturnType<typeof readStoreFile>>;

/** What a pass read, less the batches already handed to `flush`. */
export interface Collected {
  result: FileRead;
  records: number;
  batch: RowBatch;
  defects: JsonlDefect[];
}

/**
 * Reads a file of a store (from `fromOffset`) into row batches: each time a batch fills up it goes
 * to `flush` with the defects met since the last one; the rest is returned with the read's
 * result. The same code runs in-thread and on the parse worker (parse-worker.ts), so both give the
 * same rows in the same batches.
 */
export async function collectRows(
  def: StoreDef,
  tier: StoreTier,
  fileId: number,
  filePath: string,
  options: CollectOptions,
  flush: (batch: RowBatch, defects: JsonlDefect[]) => void,
): Promise<Collected> {
  let batch = new RowBatch(def.table);
  let defects: JsonlDefect[] = [];
  let storedDefects = options.storedDefects;
  let records = 0;
  const flushNow = () => {
    flush(batch, defects);
    batch = new RowBatch(def.table);
    defects = [];
  };
  const result = await readStoreFile(def, filePath, {
    fromOffset: options.fromOffset,
    firstLine: options.firstLine,
    seenIds: options.seenIds,
    maxCollectedDefects: 0,
    confineTo: options.confineTo,
    hashLines: true,
    onRecord: (record) => {
      records++;
      batch.add(def, tier, fileId, record);
      if (batch.rows >= BATCH_RECORDS) flushNow();
    },
    onDefect: (defect) => {
      if (storedDefects++ < MAX_STORED_DEFECTS) defects.push(defect);
      if (defects.length >= BATCH_RECORDS) flushNow();
    },
  });
  return { result, records, batch, defects };
}
