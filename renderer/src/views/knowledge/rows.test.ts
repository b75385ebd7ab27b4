import { describe, expect, it } from 'vitest';
import { changedKeys, rowKey, type EntryItem } from './rows';

const item = (id: string, over: Partial<EntryItem> = {}): EntryItem => ({
  rid: 1,
  id,
  store: 'knowledge',
  collection: 'active',
  tier: 'swarm',
  status: 'candidate',
  category: 'process',
  scope: 'global',
  priority: 'medium',
  confidence: 0.5,
  project: 'p',
  createdAt: null,
  updatedAt: '2026-07-01T00:00:00.000Z',
  phasesAlive: 0,
  maxPhases: null,
  encounterScore: 0,
  shownCount: 0,
  lesson: 'a lesson',
  tags: [],
  flagged: false,
  duplicate: false,
  file: '.swarm/knowledge.jsonl',
  line: 1,
  match: null,
  ...over,
});

describe('live row marks', () => {
  it('marks rows that changed and rows that arrived, not rows that merely scrolled in', () => {
    const seen = new Map<string, string>();
    expect(changedKeys([item('a'), item('b')], seen, false)).toEqual([]);
    expect(changedKeys([item('a', { rid: 9 }), item('b', { status: 'established' })], seen, false)).toEqual([rowKey(item('b'))]);
    expect(changedKeys([item('c')], seen, false)).toEqual([]);
    expect(changedKeys([item('d'), item('a')], seen, true)).toEqual([rowKey(item('d'))]);
  });
});
