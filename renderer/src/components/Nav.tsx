import { For } from 'solid-js';
import { AREAS, type AreaId } from '../state/route';

export function Nav(props: { current: AreaId; onSelect: (area: AreaId) => void }) {
  return (
    <nav class="nav" aria-label="Areas">
      <div class="brand">
        <span class="brand-mark" aria-hidden="true">◆</span> Swarm Console
      </div>
      <ul>
        <For each={AREAS}>
          {(area, index) => (
            <li>
              <a
                href={`#/${area.id}`}
                class="nav-item"
                classList={{ active: props.current === area.id }}
                aria-current={props.current === area.id ? 'page' : undefined}
                title={`${area.hint} (Alt+${index() + 1})`}
                onClick={(event) => {
                  event.preventDefault();
                  props.onSelect(area.id);
                }}
              >
                {area.label}
              </a>
            </li>
          )}
        </For>
      </ul>
    </nav>
  );
}
