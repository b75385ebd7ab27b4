import { describe, expect, it } from 'vitest';
import { historicalItem } from './historical-row';

const ACTIVE = { tier: 'swarm', storeKey: 'knowledge', file: '.swarm/knowledge.jsonl' };

describe('a historical line as the live table row', () => {
  it('reads the columns the way the store index reads a live line: normalised, defaults, the first of several fields', () => {
    const b = historicalItem({ id: 'b', lesson: 'Retry budget below the queue timeout', status: 'candidate', category: 'testing', confidence: 0.42, tags: ['queue', 'queue'], directive_priority: 'critical', updated_at: '2026-11-03T00:00:00Z' }, ACTIVE, 'active', 1);
    expect(b).toMatchObject({ rid: -2, id: 'b', store: 'knowledge', tier: 'swarm', collection: 'active', status: 'candidate', priority: 'critical', confidence: 0.42, tags: ['queue'], updatedAt: '2026-11-03T00:00:00Z', file: '.swarm/knowledge.jsonl' });
    // No directive_priority: the plugin's default; tags that are not a list: read as [] (the store's checker).
    expect(historicalItem({ id: 'a', lesson: 'x', tags: 'deploy' }, ACTIVE, 'active', 0)).toMatchObject({ priority: 'medium', tags: [] });
    // v1 counters are read as the plugin reads them (normalised by the store's checker), as the live index does.
    expect(historicalItem({ id: 'v1', lesson: 'x', retrieval_outcomes: { shown_count: 3 } }, ACTIVE, 'active', 0)?.shownCount).toBe(3);
    expect(historicalItem({ id: 'h1', lesson: 'Hive lesson', status: 'promoted', source_project: 'payments' }, { tier: 'hive', storeKey: 'hive', file: 'shared-learnings.jsonl' }, 'hive', 3)).toMatchObject({ collection: 'active', tier: 'hive', project: 'payments' });
    expect(historicalItem({ id: 'q1', lesson: 'Q', status: 'quarantined', quarantined_at: '2026-11-05T00:00:00Z' }, { tier: 'swarm', storeKey: 'knowledge-quarantined', file: '.swarm/knowledge-quarantined.jsonl' }, 'quarantined', 4)).toMatchObject({ collection: 'quarantined', updatedAt: '2026-11-05T00:00:00Z' });
    expect(historicalItem({ id: 'r1', lesson: 'Rejected', rejected_at: '2026-11-04T00:00:00Z' }, { tier: 'swarm', storeKey: 'knowledge-rejected', file: '.swarm/knowledge-rejected.jsonl' }, 'rejected', 5)).toMatchObject({ collection: 'rejected', status: 'rejected', priority: null });
  });

  it('has no row for a line that was not a JSON object', () => {
    expect(historicalItem(null, ACTIVE, 'active', 0)).toBeNull();
  });
});
