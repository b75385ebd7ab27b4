import type { JSX } from 'solid-js';

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
