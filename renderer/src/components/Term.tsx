import type { JSX } from 'solid-js';
import { glossary, type GlossaryId } from '../state/glossary';

/**
 * A concept a newcomer meets (issue 19 item 5): its glossary words as the tooltip (`title`) and as
 * the accessible description (no click: terms sit inside rows that select on click; the glossary
 * is a button in the status bar and the help sheet). The words come only from state/glossary.ts.
 */
export function Term(props: { id: GlossaryId; children: JSX.Element }): JSX.Element {
  const text = () => glossary(props.id).text;
  return (
    <span class="term" data-term={props.id} title={text()} aria-description={text()}>
      {props.children}
    </span>
  );
}
