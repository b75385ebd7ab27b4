import { describe, expect, it } from 'vitest';
import { nearDuplicateClusters } from './clusters';
import { groupRejected, unactionableQueue } from './inboxes';

describe('near-duplicate clusters', () => {
  it('groups lessons transitively at the threshold and leaves singletons out', () => {
    const clusters = nearDuplicateClusters(
      [
        { id: 'a', lesson: 'Call declare_scope before any coder delegation that modifies source files.' },
        { id: 'x', lesson: 'Prefer stream.Readable.from over async iterators for backpressure.' },
        { id: 'b', lesson: 'Call declare_scope before any coder delegation that modifies files.' },
        { id: 'c', lesson: 'call DECLARE_SCOPE before any coder delegation that modifies files!' },
      ],
      0.6,
    );
    expect(clusters).toHaveLength(1);
    expect(clusters[0]!.ids).toEqual(['a', 'b', 'c']);
    expect(clusters[0]!.size).toBe(3);
    expect(clusters[0]!.similarityToAnchor[0]).toBe(1);
    expect(clusters[0]!.similarityToAnchor[1]).toBeGreaterThanOrEqual(0.6);
    expect(clusters[0]!.maxSimilarity).toBe(1);
  });

  it('lists at most maxMembers of a large cluster and says how large it is', () => {
    const items = Array.from({ length: 30 }, (_, i) => ({ id: `x${i}`, lesson: `rotate the signing keys of service number ${i} before the audit window` }));
    const [cluster] = nearDuplicateClusters(items, 0.6, 10);
    expect(cluster).toMatchObject({ size: 30 });
    expect(cluster!.ids).toHaveLength(10);
  });

  it('separates the same pair when the threshold is raised', () => {
    const items = [
      { id: 'a', lesson: 'run the focused test file after editing a fixture' },
      { id: 'b', lesson: 'run the focused test file after editing any fixture' },
    ];
    expect(nearDuplicateClusters(items, 0.6)).toHaveLength(1);
    expect(nearDuplicateClusters(items, 0.9)).toHaveLength(0);
  });
});

describe('inboxes', () => {
  it('groups rejected lessons by validation layer, newest first, unknown layers kept visible', () => {
    const groups = groupRejected(
      [
        { store: 'swarm', record: { id: '1', lesson: 'Just run rm -rf node_modules', rejection_reason: 'dangerous command pattern detected', rejected_at: '2026-06-21T12:00:00.000Z', rejection_layer: 2 } },
        { store: 'swarm', record: { id: '2', lesson: 'short', rejection_reason: 'too short', rejected_at: '2026-06-20T12:00:00.000Z', rejection_layer: 1 } },
        { store: 'hive', record: { id: '3', lesson: 'later one', rejection_reason: 'unsafe', rejected_at: '2026-06-22T12:00:00.000Z', rejection_layer: 2 } },
        { store: 'swarm', record: { id: 'e1', lesson: 'mock the db', rejection_reason: 'Retracted', rejected_at: '2026-06-23T00:00:00.000Z', rejection_layer: 3 } },
        { store: 'swarm', record: { id: '5', lesson: '?', rejection_layer: 9 } },
      ],
      new Set(['e1']),
    );
    expect(groups.map((g) => [g.layer, g.label, g.items.map((i) => i.id)])).toEqual([
      ['1', 'structural', ['2']],
      ['2', 'content safety', ['3', '1']],
      ['3', 'semantic', ['e1']],
      ['unknown', 'unknown layer', ['5']],
    ]);
    expect(groups[2]!.items[0]!.quarantineFingerprint).toBe(true);
    expect(groups[3]!.items[0]!.reason).toBe('(no reason recorded)');
  });

  it('lists the unactionable queue with readable reasons', () => {
    const queue = unactionableQueue([
      { id: 'u1', lesson: 'Be careful with timezones', unactionable_reason: 'missing_predicate_and_scope', quarantined_at: '2026-06-21T18:00:00.010Z', retire_candidate: true },
      { id: 'u2', lesson: 'Check things', unactionable_reason: 'missing_scope', quarantined_at: '2026-06-22T18:00:00.010Z' },
    ]);
    expect(queue.map((q) => q.id)).toEqual(['u2', 'u1']);
    expect(queue[1]).toMatchObject({ retireCandidate: true, reasonText: 'neither a predicate nor a scope' });
  });
});
