import { createSignal, For, Show, type JSX } from 'solid-js';
import { isSelected, type ListFilter } from './knowledge-query';
import { ProjectGroup, type ProjectNames } from './ProjectGroup';
import { groupProjectNames } from './project-names';
import type { Facets } from './use-entries';
import { Term } from '../../components/Term';

const ORDER: { key: ListFilter; label: string }[] = [
  { key: 'collection', label: 'Collection' },
  { key: 'tier', label: 'Tier' },
  { key: 'status', label: 'Status' },
  { key: 'category', label: 'Category' },
  { key: 'priority', label: 'Priority' },
  { key: 'scope', label: 'Scope' },
  { key: 'tags', label: 'Tags' },
  { key: 'project', label: 'Project' },
];
const SHOWN = 8;

function FacetGroup(props: {
  label: string;
  name: ListFilter;
  values: { value: string | null; count: number }[];
  params: Record<string, string>;
  onToggle: (key: ListFilter, value: string) => void;
  note?: JSX.Element;
  /** Shown before the values (e.g. one project's names, grouped); `values` then lists the rest. */
  head?: JSX.Element;
}) {
  const [all, setAll] = createSignal(false);
  const values = () => props.values.filter((v): v is { value: string; count: number } => v.value !== null);
  return (
    <fieldset class="facet">
      <legend>{props.name === 'tier' || props.name === 'collection' ? <Term id={props.name}>{props.label}</Term> : props.label}</legend>
      {props.head}
      <For each={all() ? values() : values().slice(0, SHOWN)}>
        {(item) => (
          <label class="facet-value">
            <input type="checkbox" checked={isSelected(props.params, props.name, item.value)} onChange={() => props.onToggle(props.name, item.value)} />
            <span class="facet-name" title={item.value}>{item.value}</span>
            <span class="facet-count">{item.count}</span>
          </label>
        )}
      </For>
      <Show when={values().length > SHOWN}>
        <button type="button" class="link" onClick={() => setAll(!all())}>
          {all() ? 'fewer' : `all ${values().length}`}
        </button>
      </Show>
      <Show when={values().length === 0}>
        <span class="muted">none</span>
      </Show>
      {props.note}
    </fieldset>
  );
}

/** Facet counts of the current search; a facet's own selection does not hide its other values. */
export function FacetPanel(props: {
  facets: Facets | null;
  params: Record<string, string>;
  onToggle: (key: ListFilter, value: string) => void;
  tierNote?: JSX.Element;
  projectNames?: ProjectNames;
}): JSX.Element {
  const projectGroups = (facets: Facets) => {
    const values = (facets.project ?? []).filter((v): v is { value: string; count: number } => v.value !== null);
    return props.projectNames ? groupProjectNames(values, props.projectNames.ownStoreNames, props.projectNames.folder) : { own: null, others: values };
  };
  return (
    <aside class="facets" aria-label="Facets">
      <Show when={props.facets} fallback={<p class="muted">Counting…</p>}>
        {(facets) => <For each={ORDER}>{(group) => (
              <FacetGroup
                label={group.label}
                name={group.key}
                values={group.key === 'project' ? projectGroups(facets()).others : (facets()[group.key] ?? [])}
                params={props.params}
                onToggle={props.onToggle}
                note={group.key === 'tier' ? props.tierNote : undefined}
                head={
                  group.key === 'project' && props.projectNames ? (
                    <Show when={projectGroups(facets()).own}>
                      {(own) => <ProjectGroup own={own()} names={props.projectNames!} params={props.params} onToggle={props.onToggle} />}
                    </Show>
                  ) : undefined
                }
              />
            )}</For>}
      </Show>
    </aside>
  );
}
