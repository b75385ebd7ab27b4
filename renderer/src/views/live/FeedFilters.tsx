import { For } from 'solid-js';
import type { FeedFilter } from '../../../../shared/contract/live';
import type { LiveStore } from './live-store';

type Key = 'project' | 'sessionID' | 'tool' | 'directiveId' | 'gate' | 'kind';

/** Filters of the feed; they live in the URL (see FILTER_PARAMS) so a filtered feed can be shared. */
export function FeedFilters(props: { filter: FeedFilter; store: LiveStore; onChange: (key: Key | 'text', value: string | null) => void; searchRef?: (el: HTMLInputElement) => void }) {
  const select = (key: Key, label: string, options: () => string[]) => (
    <label class="live-filter">
      <span class="muted small">{label}</span>
      <select aria-label={`Filter by ${label}`} value={props.filter[key] ?? ''} onChange={(e) => props.onChange(key, e.currentTarget.value || null)}>
        <option value="">all</option>
        <For each={[...new Set([...(props.filter[key] ? [props.filter[key] as string] : []), ...options()])]}>{(value) => <option value={value}>{value}</option>}</For>
      </select>
    </label>
  );
  return (
    <div class="toolbar live-filters" role="search">
      {select('project', 'project', () => props.store.facets().projects)}
      {select('sessionID', 'session', () => props.store.facets().sessions)}
      {select('tool', 'tool', () => props.store.facets().tools)}
      {select('directiveId', 'directive', () => props.store.facets().directives)}
      {select('gate', 'gate', () => props.store.facets().gates)}
      {select('kind', 'kind', () => ['denial', 'block', 'warn', 'clear'])}
      <input
        ref={(el) => props.searchRef?.(el)}
        type="search"
        aria-label="Search messages"
        placeholder="Search messages  ( / )"
        value={props.filter.text ?? ''}
        onChange={(e) => props.onChange('text', e.currentTarget.value.trim() || null)}
      />
    </div>
  );
}
