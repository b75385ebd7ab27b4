import { describe, expect, it } from 'vitest';
import type { QueueItem } from '../../../../shared/contract/skills';
import { EMPTY_QUEUE_SESSION, orderedQueue, parseKinds, parseQueueSession, queueKey, queuePosition, queueProgress } from './queue-state';

const item = (key: string, kind: QueueItem['kind'], actions: QueueItem['actions'] = []): QueueItem => ({ key, kind, title: key, detail: '', at: null, open: { view: 'skills', slug: key, entryId: null, tier: null }, actions, command: null });
const items = [item('d1', 'skill_draft', ['approve', 'reject']), item('r1', 'curator_recommendation'), item('d2', 'skill_draft', ['approve', 'reject'])];

describe('review queue keyboard', () => {
  it('j/k move within bounds, Enter opens, a/r only where the decision exists, s skips', () => {
    expect(queueKey('j', items, 0)).toEqual({ type: 'move', index: 1 });
    expect(queueKey('j', items, 2)).toEqual({ type: 'move', index: 2 });
    expect(queueKey('k', items, 0)).toEqual({ type: 'move', index: 0 });
    expect(queueKey('Enter', items, 1)).toEqual({ type: 'open', item: items[1] });
    expect(queueKey('a', items, 0)).toEqual({ type: 'approve', item: items[0] });
    expect(queueKey('r', items, 2)).toEqual({ type: 'reject', item: items[2] });
    expect(queueKey('a', [item('x', 'curator_recommendation', ['approve'])], 0)).toMatchObject({ type: 'approve' });
    expect(queueKey('s', items, 1)).toEqual({ type: 'skip', key: 'r1' });
    expect(queueKey('x', items, 1)).toEqual({ type: 'none' });
    expect(queueKey('Enter', [], 0)).toEqual({ type: 'none' });
  });

  it('an item without a decision is dismissed: r asks for a reason, a marks it reviewed', () => {
    expect(queueKey('r', items, 1)).toEqual({ type: 'dismiss', item: items[1], reason: null });
    expect(queueKey('a', items, 1)).toEqual({ type: 'dismiss', item: items[1], reason: 'reviewed' });
    const denial = item('denial:d@1', 'repeated_denial');
    expect(queueKey('r', [denial], 0)).toEqual({ type: 'dismiss', item: denial, reason: null });
    const withCommand = { ...item('h', 'hive_contradiction'), command: { preview: 'hive.quarantine.preview' as const, label: 'Quarantine', id: 'h' } };
    expect(queueKey('r', [withCommand], 0)).toMatchObject({ type: 'none', note: expect.stringContaining('hive contradiction') });
  });

  it('filters by kinds from the URL and puts skipped items last', () => {
    expect(orderedQueue(items, parseKinds('skill_draft'), []).map((i) => i.key)).toEqual(['d1', 'd2']);
    expect(orderedQueue(items, [], ['d1']).map((i) => i.key)).toEqual(['r1', 'd2', 'd1']);
    expect(parseKinds(undefined)).toEqual([]);
  });
});

describe('review queue session', () => {
  it('keeps the place by key, falls back to the same index once the item has left, and reads back what it stored', () => {
    expect(queuePosition(items, { current: 'd2', index: 0 })).toBe(2);
    expect(queuePosition(items.filter((i) => i.key !== 'r1'), { current: 'r1', index: 1 })).toBe(1);
    expect(queuePosition(items.slice(0, 1), { current: 'gone', index: 5 })).toBe(0);
    expect(queuePosition([], { current: null, index: 3 })).toBe(0);
    const session = { current: 'd2', index: 2, skipped: ['r1'], decided: ['x'] };
    expect(parseQueueSession(JSON.stringify(session))).toEqual(session);
    expect(parseQueueSession('{"current":5,"index":-1,"skipped":"no"}')).toEqual(EMPTY_QUEUE_SESSION);
    expect(parseQueueSession('not json')).toEqual(EMPTY_QUEUE_SESSION);
    expect(parseQueueSession(null)).toEqual(EMPTY_QUEUE_SESSION);
  });

  it('shows progress as n of N · decided d · skipped s; decided counts only items that left the queue', () => {
    const waiting = new Set(items.map((i) => i.key));
    expect(queueProgress(items, 1, { skipped: ['d1', 'elsewhere'], decided: ['gone', 'd2'] }, waiting)).toBe('2 of 3 · decided 1 · skipped 1');
    expect(queueProgress([], 0, { skipped: [], decided: [] }, new Set())).toBe('0 of 0 · decided 0 · skipped 0');
  });
});
