import { describe, expect, it } from 'vitest';
import { formatHash, parseHash } from './route';

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
