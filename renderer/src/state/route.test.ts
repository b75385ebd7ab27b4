import { describe, expect, it } from 'vitest';
import { createAreaMemory, formatHash, parseHash } from './route';

describe('hash routes', () => {
  it('round-trips an area with filters', () => {
    const route = parseHash('#/directives?priority=critical&q=scope%20discipline');
    expect(route).toEqual({ area: 'directives', params: { priority: 'critical', q: 'scope discipline' } });
    expect(parseHash(formatHash(route))).toEqual(route);
  });
  it('falls back to the knowledge area for unknown paths', () => {
    expect(parseHash('#/nope').area).toBe('knowledge');
    expect(parseHash('').area).toBe('knowledge');
  });
  it('drops empty params', () => {
    expect(formatHash({ area: 'live', params: { a: '', b: '1' } })).toBe('#/live?b=1');
  });
});

describe('area memory', () => {
  const storage = () => {
    const data = new Map<string, string>();
    return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) };
  };
  it("keeps each area's last filters, across a reload of the same tab's storage", () => {
    const store = storage();
    const memory = createAreaMemory(store);
    memory.keep({ area: 'knowledge', params: { q: 'scope', status: 'candidate' } });
    memory.keep({ area: 'hive', params: { q: 'retry' } });
    memory.keep({ area: 'knowledge', params: { q: 'scope', status: 'candidate', sort: 'confidence:desc' } });
    expect(memory.recall('knowledge')).toEqual({ q: 'scope', status: 'candidate', sort: 'confidence:desc' });
    expect(memory.recall('live')).toEqual({});
    const reloaded = createAreaMemory(store);
    expect(reloaded.recall('hive')).toEqual({ q: 'retry' });
    expect(reloaded.recall('knowledge')).toEqual({ q: 'scope', status: 'candidate', sort: 'confidence:desc' });
  });
  it('ignores damaged storage and unknown areas', () => {
    const store = storage();
    store.setItem('swarm-console.area-params', '{"nope":{"a":"1"},"live":{"tool":"bash","n":3}}');
    expect(createAreaMemory(store).recall('live')).toEqual({ tool: 'bash' });
    store.setItem('swarm-console.area-params', '{not json');
    expect(createAreaMemory(store).recall('live')).toEqual({});
    expect(createAreaMemory(null).recall('live')).toEqual({});
  });
});
