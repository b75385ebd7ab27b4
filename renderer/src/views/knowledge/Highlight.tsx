import { For, type JSX } from 'solid-js';

/**
 * Text with the search matches marked. The text is split into plain and marked pieces and each
 * piece is rendered as a text node, so a lesson containing markup stays text.
 */
export function pieces(text: string, ranges: readonly (readonly [number, number])[]): { text: string; marked: boolean }[] {
  const out: { text: string; marked: boolean }[] = [];
  let at = 0;
  for (const [start, end] of [...ranges].sort((a, b) => a[0] - b[0])) {
    const s = Math.max(at, Math.min(start, text.length));
    const e = Math.max(s, Math.min(end, text.length));
    if (s > at) out.push({ text: text.slice(at, s), marked: false });
    if (e > s) out.push({ text: text.slice(s, e), marked: true });
    at = e;
  }
  if (at < text.length) out.push({ text: text.slice(at), marked: false });
  return out;
}

export function Highlight(props: { text: string; ranges?: readonly (readonly [number, number])[] | null }): JSX.Element {
  return <For each={pieces(props.text, props.ranges ?? [])}>{(piece) => (piece.marked ? <mark>{piece.text}</mark> : <>{piece.text}</>)}</For>;
}
