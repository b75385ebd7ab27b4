import { describe, expect, it } from 'vitest';
import { entriesInput, queryFromParams, toggleValue } from './knowledge-query';

describe('knowledge view URL ⇄ filter', () => {
  it('restores a shared view from its URL params', () => {
    const q = queryFromParams({ q: ' declare scope ', status: 'candidate,established', tier: 'swarm', sort: 'confidence:asc' });
    expect(q.filter).toEqual({ text: 'declare scope', status: ['candidate', 'established'], tier: ['swarm'], collection: ['active'] });
    expect(entriesInput(q, 200, 200, false)).toEqual({
      offset: 200,
      limit: 200,
      filter: q.filter,
      sort: { field: 'confidence', dir: 'asc' },
      facets: false,
    });
  });

  it('shows the main stores by default and every collection on request', () => {
    expect(queryFromParams({}).filter.collection).toEqual(['active']);
    expect(queryFromParams({ collection: 'all' }).filter.collection).toBeUndefined();
    expect(toggleValue({}, 'collection', 'active')).toEqual({ collection: 'all' });
    expect(toggleValue({ collection: 'all' }, 'collection', 'rejected')).toEqual({ collection: 'rejected' });
  });

  it('falls back to the default sort for unknown columns and toggles facet values', () => {
    expect(queryFromParams({ sort: 'bogus:asc' }).sort).toEqual({ id: 'updated', desc: true });
    expect(toggleValue({ status: 'candidate' }, 'status', 'candidate')).toEqual({ status: null });
    expect(toggleValue({ status: 'candidate' }, 'status', 'promoted')).toEqual({ status: 'candidate,promoted' });
  });
});
