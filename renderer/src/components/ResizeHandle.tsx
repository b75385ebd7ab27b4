import type { JSX } from 'solid-js';

/** Pixels one arrow key press moves the edge; Shift moves it five times as far. */
const STEP = 24;

/**
 * A vertical splitter on the left edge of a side pane: drag it, or focus it and use ←/→ (Shift for
 * bigger steps), Home/End for the narrowest and widest. `width` grows as the edge moves left.
 */
export function ResizeHandle(props: { label: string; width: number; min: number; max: () => number; onResize: (width: number) => void }): JSX.Element {
  const clamp = (value: number) => Math.round(Math.max(props.min, Math.min(props.max(), value)));
  const onKeyDown = (event: KeyboardEvent) => {
    const step = event.shiftKey ? STEP * 5 : STEP;
    const next: Record<string, number> = { ArrowLeft: props.width + step, ArrowRight: props.width - step, Home: props.min, End: props.max() };
    const value = next[event.key];
    if (value === undefined) return;
    event.preventDefault();
    event.stopPropagation();
    props.onResize(clamp(value));
  };
  const onPointerDown = (event: PointerEvent) => {
    const handle = event.currentTarget as HTMLElement;
    const startX = event.clientX;
    const startWidth = props.width;
    handle.setPointerCapture(event.pointerId);
    const move = (e: PointerEvent) => props.onResize(clamp(startWidth + (startX - e.clientX)));
    const end = () => {
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', end);
      handle.removeEventListener('pointercancel', end);
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', end);
    handle.addEventListener('pointercancel', end);
    event.preventDefault();
  };
  return (
    <div
      class="resize-handle"
      role="separator"
      aria-orientation="vertical"
      aria-label={props.label}
      aria-valuenow={props.width}
      aria-valuemin={props.min}
      aria-valuemax={props.max()}
      tabindex="0"
      title="Drag, or use ← and → to resize"
      onKeyDown={onKeyDown}
      onPointerDown={onPointerDown}
    />
  );
}
