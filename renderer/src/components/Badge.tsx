import type { JSX } from 'solid-js';
import type { TextWidth } from './table/text-width';

/** A small labelled pill; `tone` picks one of the stylesheet's badge classes (status names included). */
export function Badge(props: { tone?: string | null; title?: string; children: JSX.Element }): JSX.Element {
  return (
    <span class={`badge ${props.tone ?? ''}`} title={props.title}>
      {props.children}
    </span>
  );
}

export function StatusBadge(props: { status: string | null | undefined }): JSX.Element {
  return <Badge tone={props.status ?? 'muted'}>{props.status ?? 'unknown'}</Badge>;
}

export function PriorityBadge(props: { priority: string | null | undefined; explicit?: boolean }): JSX.Element {
  return (
    <Badge tone={props.priority === 'critical' || props.priority === 'high' ? props.priority : 'muted'} title={props.explicit === false ? 'not set on the entry: treated as medium' : undefined}>
      {props.priority ?? '—'}
    </Badge>
  );
}

/** Mirrors `.badge` in styles.css (11px text, 7px padding and a 1px border each side) and `.vt-td .badge { margin-right }` in table.css. */
const BADGE_FONT_PX = 11;
const BADGE_EXTRA_PX = 2 * 7 + 2 * 1 + 4;

/** Whether badges with these labels, side by side in a table cell, need more than `available` px. */
export const badgesWider = (labels: readonly string[], available: number, text: TextWidth): boolean =>
  labels.reduce((sum, label) => sum + text.of(label, BADGE_FONT_PX) + BADGE_EXTRA_PX, 0) > available - 1;
