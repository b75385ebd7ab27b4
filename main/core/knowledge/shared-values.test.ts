import { describe, expect, it } from 'vitest';
import { withSharedParts } from './shared-values';

const entry = (over: Record<string, unknown>) => ({
  id: 'a',
  lesson: 'Run the focused test file.',
  tags: ['testing', 'ci'],
  applies_to_agents: ['coder'],
  project_name: 'billing-api-service',
  created_at: '2026-06-01T00:00:00.000Z',
  updated_at: '2026-06-01T00:00:00.000Z',
  confirmed_by: [{ phase_number: 1, confirmed_at: '2026-06-01T00:00:00.000Z', project_name: 'billing-api-service' }],
  retrieval_outcomes: { shown_count: 1, applied_count: 0 },
  ...over,
});

describe('entries with shared parts', () => {
  it('read exactly as parsed: the same keys in the same order, equal values', () => {
    const values = [
      entry({}),
      entry({ tags: ['testing', 'db'] }),
      entry({ tags: ['testing'], retrieval_outcomes: { shown_count: 1, applied_count: 2 } }),
      entry({ retrieval_outcomes: { applied_count: 0, shown_count: 1 } }),
      entry({ retrieval_outcomes: { shown_count: 1, applied_count: 0, note: 'x' }, tags: ['a', 3] }),
      entry({ required_actions: ['Run the focused test', 'Run the focused test file. Then more.', 'Run', 'x'], triggers: ['Run the focused'] }),
      JSON.parse('{"id":"p","__proto__":{"x":1},"tags":["a"]}'),
    ];
    for (const value of values) {
      const shared = withSharedParts(JSON.parse(JSON.stringify(value)));
      expect(shared).toEqual(value);
      expect(JSON.stringify(shared)).toBe(JSON.stringify(value));
      expect(Object.getPrototypeOf(shared)).toBe(Object.prototype);
    }
  });

  it('shares equal lists, counters, names and an entry own repeated timestamps', () => {
    const [a, b] = [withSharedParts(JSON.parse(JSON.stringify(entry({})))), withSharedParts(JSON.parse(JSON.stringify(entry({ id: 'b' }))))];
    expect(b.tags).toBe(a.tags);
    expect(b.retrieval_outcomes).toBe(a.retrieval_outcomes);
    expect(Object.isFrozen(a.tags)).toBe(true);
    expect(withSharedParts(entry({ tags: ['testing', 'db'] })).tags).not.toBe(a.tags);
    const confirmation = (a.confirmed_by as Record<string, unknown>[])[0]!;
    expect(confirmation.project_name).toBe(a.project_name);
    expect(() => (a.tags as string[]).push('x')).toThrow();
  });
});
