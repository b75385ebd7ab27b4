import { createEffect, For, type JSX } from 'solid-js';
import { isSelected, type ListFilter } from './knowledge-query';
import { toggleAll, type ProjectGroups } from './project-names';

export interface ProjectNames {
  /** Project names found in this project's own stores (swarm and link tiers). */
  ownStoreNames: string[];
  /** The project folder's name. */
  folder: string;
  /** Sets the whole Project selection at once. */
  onSet: (values: string[]) => void;
}

const WHY =
  'The plugin names a project twice over: its own entries carry project_name, taken from the plan title, and hive entries carry source_project, ' +
  'which is that name or, for /swarm promote, the folder name. Every name here was written by this project (its own .swarm stores or its folder).';

/** This project's names in the Project facet, as one group that selects them all, each name still its own checkbox. */
export function ProjectGroup(props: { own: NonNullable<ProjectGroups['own']>; names: ProjectNames; params: Record<string, string>; onToggle: (key: ListFilter, value: string) => void }): JSX.Element {
  const values = () => props.own.names.map((n) => n.value);
  const selected = () => (props.params.project ?? '').split(',').filter(Boolean);
  const allOn = () => values().every((v) => selected().includes(v));
  const someOn = () => !allOn() && values().some((v) => selected().includes(v));
  return (
    <div class="project-group" data-testid="project-group">
      <label class="facet-value" title={WHY}>
        <input type="checkbox" checked={allOn()} ref={(el) => createEffect(() => (el.indeterminate = someOn()))} onChange={() => props.names.onSet(toggleAll(selected(), values()))} />
        <span class="facet-name">this project ({props.names.folder})</span>
        <span class="facet-count">{props.own.count}</span>
      </label>
      <For each={props.own.names}>
        {(item) => (
          <label class="facet-value alias">
            <input type="checkbox" checked={isSelected(props.params, 'project', item.value)} onChange={() => props.onToggle('project', item.value)} />
            <span class="facet-name" title={item.value}>
              {item.value}
            </span>
            <span class="facet-count">{item.count}</span>
          </label>
        )}
      </For>
      <p class="facet-why muted" data-testid="project-group-why">
        One project, {props.own.names.length} names: the plan title on its own entries, the folder name on hive entries from <code>/swarm promote</code>.
      </p>
    </div>
  );
}
