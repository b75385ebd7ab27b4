import fs from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import Database from 'better-sqlite3';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveWorkspacePaths } from '../platform/paths/workspace-paths';
import { line, swarmEntryV2 } from '../../../testing/stores/sample-records';
import { EntriesInput } from '../../../shared/contract/stores';
import { listEntries } from './entry-queries';
import { decodeColumns, encodeColumns, type ColumnState } from './column-snapshot';
import { StoreIndexService } from './store-index-service';

/**
 * A column cache kept in the index between sessions: what it answers after a re-open equals what
 * a cache read from the table answers, and it is never taken once a row it holds left the table.
 */

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function workspace() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'column-snapshot-'));
  const project = path.join(root, 'project');
  fs.mkdirSync(path.join(project, '.swarm'), { recursive: true });
  cleanups.push(() => fs.rmSync(root, { recursive: true, force: true }));
  const knowledge = path.join(project, '.swarm', 'knowledge.jsonl');
  const paths = resolveWorkspacePaths(project, path.join(root, 'hive'), 'flag', false);
  const open = async () => {
    const service = new StoreIndexService(paths, path.join(root, 'cache'), { watch: false });
    await service.ready;
    await service.warmed;
    return service;
  };
  return { knowledge, open };
}

const STATUSES = ['candidate', 'established', 'promoted', 'archived'];
const PRIORITIES = ['low', 'medium', 'high', 'critical'];
/** Entries whose columns vary: status, priority, tags, confidence (fractions), counters, timestamps. */
function entries(from: number, count: number): string {
  return Array.from({ length: count }, (_, k) => {
    const i = from + k;
    return line(
      swarmEntryV2({
        id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        lesson: `lesson ${i}`,
        status: STATUSES[i % 4],
        directive_priority: PRIORITIES[i % 3],
        tags: i % 5 === 0 ? [] : [`tag-${i % 7}`, `area-${i % 3}`],
        confidence: (i % 10) / 10 + 0.05,
        encounter_score: i % 9 === 0 ? -3 : i * 1000,
        phases_alive: i % 4,
        updated_at: new Date(Date.UTC(2026, 5, 1) + i * 3_600_000).toISOString(),
      }),
    );
  }).join('');
}

const QUERIES = [
  {},
  { filter: { status: ['candidate', 'promoted'] }, sort: { field: 'confidence', dir: 'desc' } },
  { filter: { tags: ['tag-3'] }, sort: { field: 'encounter_score', dir: 'asc' }, offset: 2 },
  { filter: { priority: ['high'], minConfidence: 0.5 }, sort: { field: 'priority', dir: 'desc' } },
  { sort: { field: 'phases_alive', dir: 'desc' }, limit: 7 },
].map((query) => EntriesInput.parse(query));

const sameBytes = (a: ArrayBufferView, b: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

const answers = (service: StoreIndexService) => QUERIES.map((query) => listEntries(service.db, service.columns.entries, query));

describe('column caches kept between sessions', () => {
  it('encodes and decodes every kind of column exactly (narrow codes and integers, NaN, fractions, -0, tags)', () => {
    const size = 66_000; // past 65,536 distinct codes in one column: 4-byte codes there
    const state: ColumnState = {
      size,
      lastRid: 123_456,
      rids: Uint32Array.from({ length: size + 10 }, (_, i) => i * 2 + 1),
      codes: new Map([
        ['few', Uint32Array.from({ length: size }, (_, i) => i % 3)],
        ['hundreds', Uint32Array.from({ length: size }, (_, i) => i % 300)],
        ['many', Uint32Array.from({ length: size }, (_, i) => i)],
      ]),
      numbers: new Map([
        ['small', Float64Array.from({ length: size }, (_, i) => (i % 200) - 100)],
        ['wide', Float64Array.from({ length: size }, (_, i) => i * 30_000 - 5)],
        ['fractions', Float64Array.from({ length: size }, (_, i) => (i % 11 === 0 ? Number.NaN : i / 7))],
        ['huge', Float64Array.from({ length: size }, (_, i) => (i === 5 ? 2 ** 40 : i))],
        ['negativeZero', Float64Array.from({ length: size }, (_, i) => (i === 9 ? -0 : 1))],
      ]),
      dictionaries: new Map([
        ['few', ['a', null, 'c']],
        ['hundreds', Array.from({ length: 300 }, (_, i) => `v${i}`)],
        ['many', Array.from({ length: size }, (_, i) => `id-${i}`)],
      ]),
      tagStarts: Uint32Array.from({ length: size + 1 }, (_, i) => i * 2),
      tagCodes: Uint32Array.from({ length: size * 2 }, (_, i) => i % 5),
      tagCount: size * 2,
      tagValues: ['t0', 't1', 't2', 't3', 't4'],
    };
    const blob = encodeColumns(state, 'spec');
    const decoded = decodeColumns(blob, 'spec')!;
    expect(decoded.size).toBe(size);
    expect(decoded.lastRid).toBe(123_456);
    expect(sameBytes(decoded.rids, state.rids.subarray(0, size))).toBe(true);
    for (const [name, codes] of state.codes) expect(sameBytes(decoded.codes.get(name)!, codes), name).toBe(true);
    for (const [name, numbers] of state.numbers) expect(sameBytes(decoded.numbers.get(name)!, numbers), name).toBe(true);
    expect(Object.is(decoded.numbers.get('negativeZero')![9], -0)).toBe(true);
    expect(decoded.dictionaries).toEqual(state.dictionaries);
    expect(sameBytes(decoded.tagStarts!, state.tagStarts!)).toBe(true);
    expect(sameBytes(decoded.tagCodes!, state.tagCodes!)).toBe(true);
    expect(decoded.tagValues).toEqual(state.tagValues);
    // Codes as narrow as their dictionaries (1, 2, 4 bytes), whole numbers as narrow as their range
    // (1 and 4 bytes; NaN, fractions, 2^40 and -0 stay 8): 52 bytes a row with rid and tags, not 68.
    const dictionaryBytes = JSON.stringify([...state.dictionaries.values()]).length;
    expect(blob.length - dictionaryBytes).toBeGreaterThan(size * 52);
    expect(blob.length - dictionaryBytes).toBeLessThan(size * 52 + 1000);
    expect(decodeColumns(blob, 'other columns')).toBeNull();
    expect(decodeColumns(blob.subarray(0, blob.length - 1), 'spec')).toBeNull();
  });

  it('answers a re-open from the kept cache as the table answers, and loads only the rows appended since', async () => {
    const w = workspace();
    fs.writeFileSync(w.knowledge, entries(0, 300));
    const first = await w.open();
    expect(first.columns.entries.restoredRows).toBe(0);
    await first.close();

    const second = await w.open();
    expect(second.columns.entries.restoredRows).toBe(300);
    const restored = answers(second);
    second.columns.entries.invalidate('full'); // read from the table again
    expect(restored).toEqual(answers(second));
    await second.close();

    fs.appendFileSync(w.knowledge, entries(300, 40));
    const third = await w.open();
    expect(third.columns.entries.restoredRows).toBe(300);
    expect(third.columns.entries.rowCount).toBe(340);
    const grown = answers(third);
    third.columns.entries.invalidate('full');
    expect(grown).toEqual(answers(third));
    expect(grown[0]!.total).toBe(340);
  });

  it('is kept deflated for entries, and an entries snapshot kept as is (the format before) is read again from the rows', async () => {
    const w = workspace();
    fs.writeFileSync(w.knowledge, entries(0, 300));
    await (await w.open()).close();
    const reopened = await w.open();
    expect(reopened.columns.entries.restoredRows).toBe(300);
    const file = reopened.db.name;
    await reopened.close();
    const db = new Database(file);
    const blob = db.prepare("SELECT value FROM derived_values WHERE name = 'columns:entries'").pluck().get() as Buffer;
    const inflated = inflateRawSync(blob);
    expect(blob.length).toBeLessThan(inflated.length / 2);
    expect(decodeColumns(inflated, 'other columns')).toBeNull(); // a snapshot, of columns other than these
    db.prepare("UPDATE derived_values SET value = ? WHERE name = 'columns:entries'").run(inflated);
    db.close();

    const again = await w.open();
    expect(again.columns.entries.restoredRows).toBe(0);
    expect(answers(again)[0]!.total).toBe(300);
    await again.close();
  });

  it('is never taken once a row it holds left the table (a rewrite), even when as many rows came back', async () => {
    const w = workspace();
    fs.writeFileSync(w.knowledge, entries(0, 200));
    await (await w.open()).close();
    // The same number of lines, some of them different: the file's rows are deleted and inserted again.
    fs.writeFileSync(w.knowledge, entries(0, 150) + entries(1000, 50));
    const reopened = await w.open();
    expect(reopened.columns.entries.restoredRows).toBe(0);
    const kept = answers(reopened);
    reopened.columns.entries.invalidate('full');
    expect(kept).toEqual(answers(reopened));
    expect(kept[0]!.items.some((item) => item.id?.endsWith('000000001049'))).toBe(true);
  });
});
