import type { JSX } from 'solid-js';

/** What an area will show, said plainly, instead of fake data. */
export function EmptyState(props: { title: string; children: JSX.Element }) {
  return (
    <section class="empty-state" role="status">
      <h2>{props.title}</h2>
      <div class="empty-state-body">{props.children}</div>
    </section>
  );
}
