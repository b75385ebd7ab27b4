import { describe, expect, it } from 'vitest';
import { groupProjectNames, toggleAll } from './project-names';

const facet = [
  { value: 'Billing API hardening', count: 12 },
  { value: 'web-storefront', count: 7 },
  { value: 'billing-api', count: 4 },
  { value: 'unknown', count: 3 },
];

describe('one project under two names in the Project facet', () => {
  it("groups the plan title of this project's entries with its folder name", () => {
    const groups = groupProjectNames(facet, ['Billing API hardening', 'unknown'], 'billing-api');
    expect(groups.own).toEqual({ names: [facet[0], facet[2]], count: 16 });
    expect(groups.others.map((v) => v.value)).toEqual(['web-storefront', 'unknown']);
  });

  it('leaves the facet alone when the project goes by one name only', () => {
    expect(groupProjectNames(facet, ['web-storefront'], 'web-storefront')).toEqual({ own: null, others: facet });
    expect(groupProjectNames(facet, ['unknown'], 'elsewhere').own).toBeNull();
  });

  it('selects every name of the group, or clears them when all are on', () => {
    expect(toggleAll(['web-storefront'], ['a', 'b'])).toEqual(['web-storefront', 'a', 'b']);
    expect(toggleAll(['a', 'web-storefront', 'b'], ['a', 'b'])).toEqual(['web-storefront']);
    expect(toggleAll(['a'], ['a', 'b'])).toEqual(['a', 'b']);
  });
});
