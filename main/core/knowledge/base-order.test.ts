import { describe, expect, it } from 'vitest';
import { TimeSlicer } from '../platform/util/time-slicer';
import { keptTimes, rankByBase, rankByBaseSliced, rankingBasis } from './injection-preview';
import { baseScore, phaseCategories } from '../rules/injection-scoring';
import { SimilarityRunner } from './similarity-runner';
import { sourceWorkerSpec } from '../../../testing/workers/source-worker';

// Confidences a hair apart, so many pairs are "within 0.001" and fall to the time tie-break (a
// comparator that is not transitive: the order is the sort algorithm's, so it must be the same call).
const kept = Array.from({ length: 3000 }, (_, i) => ({
  id: `e${i}`,
  tier: i % 5 === 0 ? 'hive' : 'swarm',
  category: ['process', 'tooling', 'testing', 'other'][i % 4],
  tags: i % 3 ? [] : ['x'],
  confidence: 0.5 + ((i * 7919) % 1000) / 400_000,
  source_project: i % 10 === 0 ? 'billing-api' : 'other',
  created_at: new Date(Date.UTC(2026, 0, 1) + ((i * 104729) % 5000) * 60_000).toISOString(),
}));
const ctx = { phase: 'Phase 3: Implement refunds', projectName: 'billing-api' };

/** The reader's ranking as the plugin (and this console before) wrote it: objects sorted in place. */
function referenceOrder(): string[] {
  const categories = phaseCategories(ctx.phase);
  const time = (e: Record<string, unknown>) => Date.parse(String(e.created_at ?? '')) || 0;
  const scored = kept.map((entry) => ({ entry, base: baseScore(entry, ctx.phase, ctx.projectName, categories) }));
  scored.sort((a, b) => {
    const diff = b.base.base - a.base.base;
    return Math.abs(diff) > 0.001 ? diff : time(b.entry) - time(a.entry);
  });
  return scored.map((s) => s.entry.id);
}

describe('base ranking', () => {
  it('orders exactly as sorting the scored entries does, in-thread and in a worker', async () => {
    const expected = referenceOrder();
    expect(Array.from(rankByBase(kept, rankingBasis(ctx)).order, (i) => kept[i]!.id)).toEqual(expected);
    const runner = new SimilarityRunner(sourceWorkerSpec);
    try {
      const ranking = await rankByBaseSliced(kept, rankingBasis(ctx), keptTimes(kept), new TimeSlicer(0), (base, times) => runner.run('rankOrder', { base, times }));
      expect(runner.counts.worker).toBe(1);
      expect(Array.from(ranking.order, (i) => kept[i]!.id)).toEqual(expected);
    } finally {
      await runner.dispose();
    }
  });
});
