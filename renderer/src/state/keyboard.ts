import { onCleanup } from 'solid-js';

interface ListKeys {
  move(step: number): void;
  open(): void;
  focusSearch(): void;
  escape(): void;
}

const isTyping = (target: EventTarget | null) => target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));

/**
 * The list keyboard scheme (Langfuse-style): j/k or arrows move, Enter opens, / searches, Esc
 * closes (`?` and its help sheet are the shell's). Keys typed into a field stay with the field, except Esc.
 */
export function useListKeys(keys: ListKeys): void {
  const onKey = (event: KeyboardEvent) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === 'Escape') {
      keys.escape();
      return;
    }
    if (isTyping(event.target)) return;
    if (event.key === 'Enter' && event.target instanceof HTMLElement && event.target.closest('button, a, summary')) return;
    const actions: Record<string, () => void> = {
      j: () => keys.move(1),
      ArrowDown: () => keys.move(1),
      k: () => keys.move(-1),
      ArrowUp: () => keys.move(-1),
      PageDown: () => keys.move(20),
      PageUp: () => keys.move(-20),
      Enter: () => keys.open(),
      '/': () => keys.focusSearch(),
    };
    const action = actions[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  };
  window.addEventListener('keydown', onKey);
  onCleanup(() => window.removeEventListener('keydown', onKey));
}
