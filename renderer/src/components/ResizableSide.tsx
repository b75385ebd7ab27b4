import { createSignal, onMount, type JSX } from 'solid-js';
import { ResizeHandle } from './ResizeHandle';

/** A side pane whose left edge can be dragged (or moved with the keyboard); `width` null: as the stylesheet lays it out. */
export function ResizableSide(props: { label: string; width: number | null; min: number; max: () => number; onResize: (width: number) => void; children: JSX.Element }): JSX.Element {
  let element: HTMLDivElement | undefined;
  const [measured, setMeasured] = createSignal(props.min);
  onMount(() => setMeasured(Math.round(element?.getBoundingClientRect().width ?? props.min)));
  return (
    <div class="resizable-side" ref={element}>
      <ResizeHandle label={props.label} width={props.width ?? measured()} min={props.min} max={props.max} onResize={props.onResize} />
      {props.children}
    </div>
  );
}
