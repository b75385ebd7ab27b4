import { describe, expect, it } from 'vitest';
import { NO_SLICING, TimeSlicer } from '../platform/util/time-slicer';
import { CounterpartIndex } from './counterparts';
import { DerivedCache } from './derived-cache';
import type { SourceEntry } from './model-types';

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

describe('counterpart index', () => {
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
