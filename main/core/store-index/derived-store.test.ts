import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DerivedStore, packedParts, ridListBytes, ridListOf } from './derived-store';
import { openIndex } from './open-index';

/** A lesson's bigram tokens kept as 32-bit words: read back whole, and its postings dropped with it. */

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach((root) => fs.rmSync(root, { recursive: true, force: true })));

function store() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'derived-store-'));
  roots.push(root);
  const { db } = openIndex(root);
  return { db, derived: new DerivedStore(db) };
}

describe('derived store: lesson tokens', () => {
  it('keeps a token\'s rids ascending, once each, as gaps of a byte or a few', () => {
    const rids = [5, 1, 127, 128, 129, 16_511, 16_512, 2_097_152, 2 ** 31 + 7, 2 ** 40, 5];
    const bytes = ridListBytes(rids);
    expect(ridListOf(bytes)).toEqual([...new Set(rids)].sort((a, b) => a - b));
    expect(ridListBytes([1, 2, 3, 4]).length).toBe(4);
    expect(ridListBytes([300]).length).toBe(2);
    expect(ridListOf(ridListBytes([]))).toEqual([]);
    expect(() => ridListBytes([-1])).toThrow();
  });

  it('finds lessons by shared tokens, merges lists, and leaves a removed lesson out while its rid stays in the lists', () => {
    const { db, derived } = store();
    try {
      derived.addLessons(
        [
          { rid: 1, grp: 0, tokens: [-5, 7, 11] },
          { rid: 2, grp: 0, tokens: [7, 11, 13] },
          { rid: 3, grp: 1, tokens: [7, 11] },
        ],
        true,
      );
      expect(derived.sharingTokens(0, [7, 11], 2).sort()).toEqual([1, 2]);
      expect(derived.sharingTokens(0, [-5], 1)).toEqual([1]);
      // Keys: the group above the token's 32 bits as unsigned (-5 is 2^32 - 5).
      expect(db.prepare('SELECT key FROM derived_postings ORDER BY key').pluck().all()).toEqual([7, 11, 13, 2 ** 32 - 5, 2 ** 32 + 7, 2 ** 32 + 11]);
      expect(derived.deadLessons()).toBe(0);
      derived.removeLessons([1, 99]);
      expect(derived.postedRids().sort()).toEqual([2, 3]);
      expect(derived.deadLessons()).toBe(1);
      expect(derived.sharingTokens(0, [-5, 7, 11], 1)).toEqual([2]);
      expect(derived.sharingTokens(0, [-5], 1)).toEqual([]);
      // The rid is still in its lists: only the record of the lesson went.
      expect(ridListOf(db.prepare('SELECT rids FROM derived_postings WHERE key = 7').pluck().get() as Buffer)).toEqual([1, 2]);
      // Lists grow by merging: a lesson added again is listed once, a new one joins.
      derived.addLessons([{ rid: 2, grp: 0, tokens: [7] }, { rid: 4, grp: 0, tokens: [7, 13] }], true);
      derived.addPostings([{ grp: 0, token: 13, rids: [2, 5] }]);
      expect(ridListOf(db.prepare('SELECT rids FROM derived_postings WHERE key = 7').pluck().get() as Buffer)).toEqual([1, 2, 4]);
      expect(derived.sharingTokens(0, [7, 13], 2)).toEqual([2, 4]);
      // 5 has postings but no record: a lesson on record always has its postings, not the reverse.
      expect(derived.sharingTokens(0, [13, 13], 1)).toEqual([2, 4]);
      derived.clearPostings();
      expect([derived.postedRids(), derived.deadLessons(), db.prepare('SELECT count(*) FROM derived_postings').pluck().get()]).toEqual([[], 0, 0]);
    } finally {
      db.close();
    }
  });
});

describe('derived store: kept values', () => {
  it('keeps long parts deflated and short ones as text, and reads both back as written (text kept by an older version too)', async () => {
    const { db, derived } = store();
    try {
      const long = JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ id: `lesson-${i}`, lesson: 'Run the single affected test file first — ünïcode kept.', shown: i })));
      const short = '[1,2,3]';
      derived.writeParts('kept', 0, [long, short]);
      derived.writePartsAt('kept', [[5, long.slice(0, 600)]]);
      derived.finishValue('kept', 'stamp-1', null);
      const stored = db.prepare("SELECT part, value FROM derived_values WHERE name = 'kept' AND part >= 0 ORDER BY part").all() as { part: number; value: string | Buffer }[];
      expect(stored.map((row) => typeof row.value)).toEqual(['object', 'string', 'object']);
      expect((stored[0]!.value as Buffer).length).toBeLessThan(Buffer.byteLength(long) / 5);
      expect(derived.readParts('kept', 'stamp-1', [5, 1, 0])).toEqual([long.slice(0, 600), short, long]);
      expect(derived.readParts('kept', 'stamp-2', [0])).toBeNull();

      // Parts packed off the thread are stored as they are, and read back the same.
      derived.writeParts('kept', 0, await packedParts([short, long]));
      expect(db.prepare("SELECT typeof(value) FROM derived_values WHERE name = 'kept' AND part IN (0, 1) ORDER BY part").pluck().all()).toEqual(['text', 'blob']);
      expect(derived.readParts('kept', 'stamp-1', [0, 1, 5])).toEqual([short, long, long.slice(0, 600)]);

      // A value an older version kept as text, however long, reads as it was written.
      db.prepare("INSERT INTO derived_values(name, part, value) VALUES ('old', 0, ?)").run(long);
      derived.finishValue('old', 'stamp-1', 1);
      expect(derived.readValue('old', 'stamp-1')).toEqual([long]);
    } finally {
      db.close();
    }
  });
});
