import { describe, expect, it } from 'vitest';
import { NO_SLICING, TimeSlicer } from '../platform/util/time-slicer';
import { CounterpartIndex } from './counterparts';
import { DerivedCache } from './derived-cache';
import type { SourceEntry } from './model-types';
import { jaccard, normalizeLesson, wordBigrams } from '../rules/similarity';

let rid = 0;
const lesson = (tier: SourceEntry['tier'], text: string): SourceEntry => ({
  rid: ++rid,
  value: { id: `id-${rid}`, lesson: text, tier },
  text: '',
  tier,
  collection: 'active',
  storeKey: tier === 'hive' ? 'hive' : 'knowledge',
  file: tier,
  line: rid,
  notes: [],
});

const TEMPLATES = [
  'Run the focused test file after editing a fixture to catch snapshot drift',
  'Call declare_scope before any coder delegation that modifies source files',
  'Pin the lockfile before upgrading the toolchain in the ingest worker',
];
const variant = (i: number) => `${TEMPLATES[i % TEMPLATES.length]} ${['early', 'again', 'always'][i % 3]} ${i % 7 === 0 ? 'now' : ''}`.trim();

/**
 * What a search of every lesson of the other tier group finds, independently of the index: the
 * lessons at similarity ≥ threshold (or the same lesson), best first, ties in the order a scan of
 * the entry's bigrams (text order), each bigram's lessons in file order, meets them; at most 10.
 */
function everyLesson(all: readonly SourceEntry[], entry: SourceEntry, threshold: number) {
  const group = (e: SourceEntry) => (e.tier === 'hive' ? 'hive' : 'project');
  const text = (e: SourceEntry) => String(e.value.lesson);
  const mine = wordBigrams(text(entry));
  const inTextOrder = [...mine];
  const found: { entry: SourceEntry; similarity: number; exact: boolean; first: number; at: number }[] = [];
  all.forEach((other, at) => {
    if (group(other) === group(entry)) return;
    const theirs = wordBigrams(text(other));
    const first = inTextOrder.findIndex((bigram) => theirs.has(bigram));
    if (first < 0) return;
    const similarity = jaccard(mine, theirs);
    const exact = normalizeLesson(text(other)) === normalizeLesson(text(entry));
    if (exact || similarity >= threshold) found.push({ entry: other, similarity: exact ? 1 : similarity, exact, first, at });
  });
  return found
    .sort((a, b) => a.first - b.first || a.at - b.at)
    .sort((a, b) => b.similarity - a.similarity)
    .slice(0, 10)
    .map(({ entry: e, similarity, exact }) => ({ entry: e, similarity, exact }));
}

describe('counterpart index', () => {
  it('finds what a search of every lesson finds, ties in the same order, at any threshold', async () => {
    const features = new DerivedCache();
    const common = 'before merging the change into the main branch of the repository';
    const texts = [
      ...Array.from({ length: 30 }, (_, i) => variant(i)),
      // More than ten copies of one lesson (ties at 1), and lessons sharing only the common words.
      ...Array.from({ length: 14 }, () => TEMPLATES[0]!),
      ...Array.from({ length: 40 }, (_, i) => `${['Rotate', 'Audit', 'Check', 'Review'][i % 4]} the ${['keys', 'logs', 'scopes', 'hooks', 'pins'][i % 5]} ${common}`),
      ...Array.from({ length: 12 }, (_, i) => `Note ${i}: alpha${i} beta${i} ${common}`),
    ];
    // Ties the shortest lists meet out of order: Z (first shared bigram "w3 w4") is before X and
    // Y in the file, Y's rarest shared bigram ("w4 w5") has a shorter list than X's ("w5 w6"), yet a
    // scan meets X, then Y (both on the list of "w1 w2", X first), then Z. All three are at 2/8.
    const tied = [
      lesson('hive', 'w3 w4 zz5 w5 w6 zz6'),
      ...Array.from({ length: 6 }, (_, i) => lesson('hive', `w1 w2 q${i} r${i} s${i} t${i} u${i} v${i}`)),
      ...Array.from({ length: 4 }, (_, i) => lesson('hive', `w5 w6 q${i} r${i} s${i} t${i} u${i} v${i}`)),
      lesson('hive', 'w1 w2 zz1 zz2 w5 w6'),
      lesson('hive', 'w1 w2 zz3 zz4 w4 w5'),
      lesson('swarm', 'w1 w2 w3 w4 w5 w6'),
    ];
    const all = [...texts.map((text, i) => lesson((['hive', 'swarm', 'link'] as const)[i % 3]!, text)), ...tied];
    expect(everyLesson(all, tied.at(-1)!, 0.25).map((c) => c.entry)).toEqual([tied.at(-3), tied.at(-2), tied[0]]);
    // Lessons inserted in the middle of file order: member numbers no longer follow file order.
    const inserted = all.filter((_, i) => i % 9 === 4);
    const before = all.filter((e) => !inserted.includes(e));
    const compare = (a: SourceEntry, b: SourceEntry) => all.indexOf(a) - all.indexOf(b);
    const updated = await CounterpartIndex.buildNow(before, features).update(all, NO_SLICING, { from: before, added: inserted, compare });
    const fresh = CounterpartIndex.buildNow(all, features);
    let ties = 0;
    for (const threshold of [0.2, 0.35, 0.5, 0.6, 0.75, 0.9, 1, 1.5]) {
      for (const entry of all) {
        const expected = everyLesson(all, entry, threshold);
        expect(fresh.find(entry, threshold)).toEqual(expected);
        expect(updated.find(entry, threshold)).toEqual(expected);
        if (expected.some((c, i) => i > 0 && c.similarity === expected[i - 1]!.similarity)) ties++;
      }
    }
    // Only the shortest lists are read. The last tied lesson shares a bigram with 13 lessons of the
    // other group; at 0.6 a match shares 3 of its 5, so the 2 shortest of its 4 non-empty lists
    // hold every one: those of "w3 w4" (Z) and "w4 w5" (Y, Z). At 0.75 a match of "Note 4: …" shares
    // 11 of its 14 bigrams, 5 of which no lesson of the other group has: none can, none is compared.
    const probe = (entry: SourceEntry, threshold: number) => {
      const index = CounterpartIndex.buildNow(all, features);
      index.find(entry, threshold);
      return index.compared;
    };
    const sharingAny = (entry: SourceEntry) =>
      all.filter((e) => (e.tier === 'hive') !== (entry.tier === 'hive') && [...wordBigrams(String(e.value.lesson))].some((b) => wordBigrams(String(entry.value.lesson)).has(b))).length;
    expect([sharingAny(tied.at(-1)!), probe(tied.at(-1)!, 0.6)]).toEqual([13, 2]);
    const note = all[texts.indexOf(`Note 4: alpha4 beta4 ${common}`)]!;
    expect([sharingAny(note), probe(note, 0.75)]).toEqual([17, 0]);
    // The comparison has ties to order and lists cut at ten.
    expect(ties).toBeGreaterThan(100);
    expect(all.some((entry) => everyLesson(all, entry, 0.2).length === 10)).toBe(true);
  });


  it('gives the grown clusters and tier merge every lesson of either group that could be a near-duplicate, reading the shortest lists only', async () => {
    const features = new DerivedCache();
    const common = 'before merging the change into the main branch of the repository';
    const texts = [
      ...Array.from({ length: 45 }, (_, i) => variant(i)),
      ...Array.from({ length: 30 }, (_, i) => `${['Rotate', 'Audit', 'Check'][i % 3]} the ${['keys', 'logs', 'scopes', 'hooks', 'pins'][i % 5]} ${common}`),
      ...Array.from({ length: 9 }, (_, i) => `Note ${i}: alpha${i} beta${i} ${common}`),
      'single',
    ];
    const all = texts.map((text, i) => lesson((['hive', 'swarm', 'link'] as const)[i % 3]!, text));
    const compare = (a: SourceEntry, b: SourceEntry) => all.indexOf(a) - all.indexOf(b);
    const inserted = all.filter((_, i) => i % 7 === 3);
    const before = all.filter((e) => !inserted.includes(e));
    const indexes = [CounterpartIndex.buildNow(all, features), await CounterpartIndex.buildNow(before, features).update(all, NO_SLICING, { from: before, added: inserted, compare })];
    const group = (e: SourceEntry) => (e.tier === 'hive' ? 'hive' : 'project');
    const bigrams = (e: SourceEntry) => wordBigrams(String(e.value.lesson));
    // Independently of the index: every lesson of the group sharing at least ⌈t·|bigrams|⌉ of the entry's, with the count.
    const reference = (entry: SourceEntry, same: boolean, threshold: number) => {
      const mine = bigrams(entry);
      const least = Math.min(mine.size, Math.max(1, Math.ceil(threshold * mine.size - 1e-6)));
      return all
        .filter((other) => (group(other) === group(entry)) === same)
        .map((other) => [other.value.id, [...bigrams(other)].filter((b) => mine.has(b)).length] as const)
        .filter(([, shared]) => mine.size > 0 && shared >= least)
        .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    };
    const asList = (found: ReadonlyMap<SourceEntry, number>) => [...found].map(([e, shared]) => [e.value.id, shared] as const).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    let nearDuplicates = 0;
    for (const index of indexes) {
      for (const threshold of [0.2, 0.5, 0.6, 0.85, 1, 1.5]) {
        for (const entry of all) {
          for (const same of [true, false]) {
            const found = same ? index.sameGroup(entry, threshold) : index.otherGroup(entry, threshold);
            expect(asList(found)).toEqual(reference(entry, same, threshold));
            // What the callers need: every lesson at similarity ≥ threshold is among them.
            for (const other of all) {
              if ((group(other) === group(entry)) !== same || other === entry || jaccard(bigrams(entry), bigrams(other)) < threshold) continue;
              expect(found.has(other)).toBe(true);
              nearDuplicates++;
            }
          }
        }
      }
    }
    expect(nearDuplicates).toBeGreaterThan(500);
    // "Rotate the keys …" shares the common words with 26 lessons of the other group; at 0.85 a match
    // shares 12 of its 13 bigrams, so only the lists of its rarest bigrams are read: 4 lessons compared.
    const templated = all[45]!;
    const index = CounterpartIndex.buildNow(all, features);
    index.otherGroup(templated, 0.85);
    const sharingAny = all.filter((e) => group(e) !== group(templated) && [...bigrams(e)].some((b) => bigrams(templated).has(b))).length;
    expect([sharingAny, index.compared]).toEqual([26, 4]);
  });

  it('after lessons are inserted anywhere in file order, finds exactly what a fresh build finds', async () => {
    const features = new DerivedCache();
    const hive = Array.from({ length: 40 }, (_, i) => lesson('hive', variant(i)));
    const project = Array.from({ length: 60 }, (_, i) => lesson(i % 2 ? 'link' : 'swarm', variant(i + 1)));
    // Ten new lessons (few enough to be inserted rather than rebuilt): five in the middle of
    // file order (an append to an earlier file), five at the end.
    const after = [...project, ...hive];
    const before = after.filter((e) => !project.slice(20, 25).includes(e) && !hive.slice(35).includes(e));
    const index = await CounterpartIndex.build(before, features, new TimeSlicer(0));
    const updated = await index.update(after, new TimeSlicer(0));
    const fresh = CounterpartIndex.buildNow(after, features);
    expect(updated).not.toBe(index);
    for (const entry of after) expect(updated.find(entry, 0.6)).toEqual(fresh.find(entry, 0.6));
    // The old index still answers for the old lessons (an index is never changed once built).
    for (const entry of before) expect(index.find(entry, 0.6)).toEqual(CounterpartIndex.buildNow(before, features).find(entry, 0.6));
    expect(fresh.find(hive[0]!, 0.6).length).toBeGreaterThan(1);
  });

  it('inserts lessons known to be appended at their place in file order without comparing the lists', async () => {
    const features = new DerivedCache();
    const after = [...Array.from({ length: 50 }, (_, i) => lesson(i % 2 ? 'link' : 'swarm', variant(i))), ...Array.from({ length: 40 }, (_, i) => lesson('hive', variant(i + 3)))];
    const added = [after[10]!, after[11]!, after[49]!, after[89]!];
    const before = after.filter((e) => !added.includes(e));
    const index = CounterpartIndex.buildNow(before, features);
    const compare = (a: SourceEntry, b: SourceEntry) => after.indexOf(a) - after.indexOf(b);
    const updated = await index.update(after, new TimeSlicer(0), { from: before, added, compare });
    const fresh = CounterpartIndex.buildNow(after, features);
    for (const entry of after) expect(updated.find(entry, 0.6)).toEqual(fresh.find(entry, 0.6));
  });

  it('rebuilds when a lesson is gone', async () => {
    const features = new DerivedCache();
    const all = Array.from({ length: 20 }, (_, i) => lesson(i % 2 ? 'hive' : 'swarm', variant(i)));
    const index = CounterpartIndex.buildNow(all, features);
    const fewer = all.filter((_, i) => i !== 3);
    const updated = await index.update(fewer);
    for (const entry of fewer) expect(updated.find(entry, 0.6)).toEqual(CounterpartIndex.buildNow(fewer, features).find(entry, 0.6));
    expect(updated.find(all[2]!, 0.6).map((c) => c.entry)).not.toContain(all[3]);
  });

  it('lets gone lessons go: a run of small rewrites keeps the members within a fifth of the lessons, answers as fresh', async () => {
    const features = new DerivedCache();
    let lessons = Array.from({ length: 200 }, (_, i) => lesson(i % 2 ? 'hive' : 'swarm', variant(i)));
    let index = CounterpartIndex.buildNow(lessons, features);
    for (let round = 0; round < 60; round++) {
      // One lesson rewritten: its old line gone, a new one in its place.
      const at = (round * 37) % lessons.length;
      const gone = lessons[at]!;
      const replacement = lesson(gone.tier, `${variant(at)} rewritten ${round}`);
      const next = lessons.map((e) => (e === gone ? replacement : e));
      const compare = (a: SourceEntry, b: SourceEntry) => next.indexOf(a) - next.indexOf(b);
      index = await index.update(next, NO_SLICING, { from: lessons, added: [replacement], removed: [gone], compare });
      lessons = next;
      expect(index.memberCount).toBeLessThanOrEqual(lessons.length * 1.2 + 2);
    }
    const fresh = CounterpartIndex.buildNow(lessons, features);
    for (const entry of lessons) expect(index.find(entry, 0.6)).toEqual(fresh.find(entry, 0.6));
  });

  it('finds the same in time slices as at once', async () => {
    const features = new DerivedCache();
    const all = Array.from({ length: 600 }, (_, i) => lesson(i % 2 ? 'hive' : 'swarm', variant(i)));
    const index = CounterpartIndex.buildNow(all, features);
    const slicer = new TimeSlicer(0);
    expect(await index.findSliced(all[0]!, 0.6, slicer)).toEqual(index.find(all[0]!, 0.6));
    expect(slicer.yields).toBeGreaterThan(0);
  });
});
