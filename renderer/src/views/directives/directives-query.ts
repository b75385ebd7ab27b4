import type { Input } from '../../../../shared/contract';

/** URL params of the Directives view ⇄ the `knowledge.directives` query (quick filters are shareable). */
type DirectivesInput = Input<'knowledge.directives'>;
const PRIORITIES = ['low', 'medium', 'high', 'critical'] as const;
const SORTS = ['priority', 'expiry', 'violations', 'signal', 'updated', 'shown'] as const;

export function directivesInput(params: Readonly<Record<string, string>>, offset: number, limit: number): DirectivesInput {
  const priority = (params.priority ?? '').split(',').filter((p): p is (typeof PRIORITIES)[number] => (PRIORITIES as readonly string[]).includes(p));
  const sort = (SORTS as readonly string[]).includes(params.sort ?? '') ? (params.sort as (typeof SORTS)[number]) : 'priority';
  const expiring = Number(params.expiring);
  return {
    q: (params.q ?? '').slice(0, 200),
    priority,
    includeInactive: params.inactive === '1',
    expiringWithin: Number.isInteger(expiring) && expiring >= 0 ? expiring : null,
    violatedInWindow: params.violated === '1',
    eligibility: params.eligibility === 'eligible' || params.eligibility === 'not_eligible' ? params.eligibility : 'any',
    sort,
    offset,
    limit,
  };
}

export const directivesKey = (params: Readonly<Record<string, string>>) => JSON.stringify(directivesInput(params, 0, 1));
