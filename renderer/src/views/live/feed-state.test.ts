import { describe, expect, it } from 'vitest';
import type { FeedItem } from '../../../../shared/contract/live';
import { appendPage, describeState, filterFromParams, matchesFilter, mergeItems, removeItems } from './feed-state';

const item = (id: string, time: number, over: Partial<FeedItem> = {}): FeedItem => ({
  id,
  kind: 'denial',
  source: 'opencode',
  sources: ['opencode'],
  time,
  serverId: 's',
  directory: '/p',
  projectID: null,
  sessionID: 'ses',
  messageID: null,
  callID: null,
  agent: null,
  tool: 'bash',
  gate: 'KNOWLEDGE_ENFORCE_GATE_DENY',
  code: null,
  directiveIds: ['KD-1'],
  message: 'KNOWLEDGE_ENFORCE_GATE_DENY: bash blocked',
  input: null,
  replayed: false,
  followUp: null,
  extra: {},
  ...over,
});

describe('mergeItems', () => {
  it('inserts new items in order, replaces updates, caps the list and counts rows landing above the anchor', () => {
    const current = [item('c', 30), item('b', 20), item('a', 10)];
    const { items, insertedAbove } = mergeItems(current, [item('d', 40), item('b', 20, { tool: 'task' }), item('x', 15)], {}, 10, 'b');
    expect(items.map((i) => i.id)).toEqual(['d', 'c', 'b', 'x', 'a']);
    expect(items[2]?.tool).toBe('task');
    expect(insertedAbove).toBe(1);
    expect(mergeItems(current, [item('d', 40)], {}, 2).items.map((i) => i.id)).toEqual(['d', 'c']);
  });

  it('keeps only what matches the filter, and drops an update that stops matching', () => {
    const current = [item('b', 20), item('a', 10)];
    const { items } = mergeItems(current, [item('c', 30, { tool: 'read' }), item('b', 20, { tool: 'read' })], { tool: 'bash' }, 10);
    expect(items.map((i) => i.id)).toEqual(['a']);
  });

  it('handles thousands of pushed items in one go', () => {
    const current = Array.from({ length: 2000 }, (_, i) => item(`old${i}`, 10_000 - i));
    const incoming = Array.from({ length: 3000 }, (_, i) => item(`new${i}`, 20_000 + i));
    const { items } = mergeItems(current, incoming, {}, 4000);
    expect(items).toHaveLength(4000);
    expect(items[0]?.id).toBe('new2999');
    expect(items.every((x, i) => i === 0 || items[i - 1]!.time >= x.time)).toBe(true);
  });
});

describe('feed helpers', () => {
  it('matches every filter field', () => {
    const x = item('a', 1, { directory: '/p/sub', directiveIds: ['KD-1', 'KD-2'] });
    expect(matchesFilter(x, { project: '/p' })).toBe(true);
    expect(matchesFilter(x, { project: '/pp' })).toBe(false);
    expect(matchesFilter(x, { directiveId: 'KD-2', gate: 'KNOWLEDGE_ENFORCE_GATE_DENY', text: 'BASH' })).toBe(true);
    expect(matchesFilter(x, { kind: 'warn' })).toBe(false);
  });

  it('removes and appends without duplicates', () => {
    expect(removeItems([item('a', 1), item('b', 2)], ['a']).map((i) => i.id)).toEqual(['b']);
    expect(appendPage([item('b', 2)], [item('b', 2), item('a', 1)]).map((i) => i.id)).toEqual(['b', 'a']);
  });

  it('reads filters from URL params and describes connection states', () => {
    expect(filterFromParams({ session: 'ses_1', directive: 'KD-1', kind: 'nonsense', q: ' x ' })).toEqual({ sessionID: 'ses_1', directiveId: 'KD-1', text: 'x' });
    expect(describeState({ kind: 'silent', since: 0, lastEventAt: 1_000 }, 43_000).label).toBe('connected but silent for 42 s');
    expect(describeState({ kind: 'unreachable', since: 0, attempt: 3, reason: 'connection refused', nextAttemptAt: 0 }, 0)).toEqual({ label: 'unreachable (connection refused)', tone: 'danger' });
    expect(describeState({ kind: 'refused', since: 0, reason: 'history response over 64 MB' }, 0)).toEqual({ label: 'stopped reading: history response over 64 MB', tone: 'danger' });
  });
});
