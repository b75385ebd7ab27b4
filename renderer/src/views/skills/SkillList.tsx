import { For, Show, type JSX } from 'solid-js';
import type { SkillItem } from '../../../../shared/contract/skills';
import { glossary } from '../../state/glossary';

const KIND_FILTERS = [
  { id: '', label: 'All' },
  { id: 'draft', label: 'Drafts' },
  { id: 'motif', label: 'Motif / workflow' },
  { id: 'active', label: 'Active' },
  { id: 'retired', label: 'Retired' },
  { id: 'stale', label: 'Stale' },
] as const;

const KIND_LABEL: Record<SkillItem['kind'], string> = { draft: 'draft', motif: 'motif proposal', active: 'active', retired: 'retired', stale: 'stale' };

/** Every skill item, filtered by kind; drafts show whether they replace an active skill or were rejected. */
export function SkillList(props: { items: SkillItem[]; kind: string; selected: string | null; onKind: (kind: string) => void; onSelect: (item: SkillItem) => void }): JSX.Element {
  const shown = () => props.items.filter((i) => !props.kind || i.kind === props.kind);
  const count = (kind: string) => props.items.filter((i) => !kind || i.kind === kind).length;
  const keyOf = (i: SkillItem) => `${i.kind === 'draft' || i.kind === 'motif' ? 'proposal' : 'active'}:${i.slug}`;
  return (
    <div class="skill-list" data-testid="skill-list">
      <div class="tabs" role="tablist" aria-label="Kind">
        <For each={KIND_FILTERS}>
          {(f) => (
            <button role="tab" title={f.id === 'stale' ? glossary('stale-skill').text : undefined} aria-description={f.id === 'stale' ? glossary('stale-skill').text : undefined} aria-selected={props.kind === f.id} classList={{ primary: props.kind === f.id }} data-testid={`kind-${f.id || 'all'}`} onClick={() => props.onKind(f.id)}>
              {f.label} ({count(f.id)})
            </button>
          )}
        </For>
      </div>
      <ul>
        <For each={shown()} fallback={<li class="muted">Nothing of this kind.</li>}>
          {(item) => (
            <li>
              <button class="skill-row" classList={{ selected: props.selected === keyOf(item) }} data-testid={`skill-${keyOf(item)}`} onClick={() => props.onSelect(item)}>
                <span class={`badge kind-${item.kind}`}>{KIND_LABEL[item.kind]}</span> <span class="mono">{item.slug}</span>
                <Show when={item.rejected}>
                  {' '}
                  <span class="badge danger" data-testid="rejected-badge">
                    rejected
                  </span>
                </Show>
                <Show when={item.kind === 'motif'}>
                  {' '}
                  <span class="badge warn">activates without stamping any entry</span>
                </Show>
                <Show when={item.hasMarker === false}>
                  {' '}
                  <span class="badge warn">hand-edited (no marker)</span>
                </Show>
                <Show when={item.hasActive}>
                  {' '}
                  <span class="badge info">replaces an active skill</span>
                </Show>
                <div class="muted skill-title">{item.title}</div>
              </button>
            </li>
          )}
        </For>
      </ul>
    </div>
  );
}
