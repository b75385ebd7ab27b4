import { describe, expect, it } from 'vitest';
import type { ServerInfo } from '../../../../shared/contract/live';
import { mergeServerList, upsertServer } from './server-list';

const server = (id: string, kind: 'connecting' | 'unauthorised' | 'connected', since: number) =>
  ({ id, state: kind === 'unauthorised' ? { kind, since, reason: 'HTTP 401' } : { kind, since } }) as unknown as ServerInfo;

describe('server states from calls and pushes', () => {
  it('keeps a pushed newer state when the slower call answer arrives afterwards', () => {
    const pushed = upsertServer([], server('a', 'unauthorised', 20));
    expect(upsertServer(pushed, server('a', 'connecting', 10))[0]?.state.kind).toBe('unauthorised');
  });
  it('takes a newer state and appends unknown servers', () => {
    const list = upsertServer([server('a', 'connecting', 10)], server('a', 'connected', 30));
    expect(list.map((s) => s.state.kind)).toEqual(['connected']);
    expect(upsertServer(list, server('b', 'connecting', 5)).map((s) => s.id)).toEqual(['a', 'b']);
  });
  it('merges a fetched list by recency and drops servers it no longer has', () => {
    const current = [server('a', 'unauthorised', 20), server('gone', 'connected', 1)];
    const merged = mergeServerList(current, [server('a', 'connecting', 10), server('c', 'connected', 3)]);
    expect(merged.map((s) => `${s.id}:${s.state.kind}`)).toEqual(['a:unauthorised', 'c:connected']);
  });
});
