import { describe, expect, it } from 'vitest';
import { directivesInput } from './directives-query';

describe('directives view URL ⇄ query', () => {
  it('reads the quick filters an operator shares', () => {
    expect(directivesInput({ priority: 'critical', expiring: '2', violated: '1', sort: 'expiry' }, 0, 100)).toMatchObject({
      priority: ['critical'],
      expiringWithin: 2,
      violatedInWindow: true,
      sort: 'expiry',
      eligibility: 'any',
    });
  });

  it('ignores values it does not know', () => {
    expect(directivesInput({ priority: 'urgent', expiring: 'soon', sort: 'random', eligibility: 'maybe' }, 0, 10)).toMatchObject({
      priority: [],
      expiringWithin: null,
      sort: 'priority',
      eligibility: 'any',
    });
  });
});
