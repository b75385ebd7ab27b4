/**
 * One project can reach the Project facet under several names: the plugin writes `project_name` on
 * a project's own entries from its plan title (or `""`/`"unknown"`, or the folder name), and a hive
 * entry's `source_project` from that name or, for `/swarm promote "<text>"`, from the folder name.
 * Every name found in this project's own stores (swarm or link tier) is this project, and so is
 * its folder name; `unknown` and `""` say nothing about a project and stay apart.
 */
export interface FacetValue {
  value: string;
  count: number;
}

export interface ProjectGroups {
  /** This project's names, present in the facet, when there are at least two of them. */
  own: { names: FacetValue[]; count: number } | null;
  others: FacetValue[];
}

const SAYS_NOTHING = new Set(['', 'unknown']);

export function groupProjectNames(values: FacetValue[], ownStoreNames: readonly string[], folderName: string): ProjectGroups {
  const ownSet = new Set([...ownStoreNames, folderName].filter((name) => !SAYS_NOTHING.has(name)));
  const names = values.filter((v) => ownSet.has(v.value));
  if (names.length < 2) return { own: null, others: values };
  return {
    own: { names, count: names.reduce((sum, v) => sum + v.count, 0) },
    others: values.filter((v) => !ownSet.has(v.value)),
  };
}

/** The param change that selects all of `values` in a facet, or clears them when all are selected. */
export function toggleAll(selected: readonly string[], values: readonly string[]): string[] {
  const allOn = values.every((v) => selected.includes(v));
  return allOn ? selected.filter((v) => !values.includes(v)) : [...selected, ...values.filter((v) => !selected.includes(v))];
}
