import { createMemo, type JSX } from 'solid-js';
import { renderMarkdown } from './markdown';

/** A SKILL.md body rendered inert (see markdown.ts): no script, no remote image, no live link. */
export function Markdown(props: { source: string }): JSX.Element {
  const html = createMemo(() => renderMarkdown(props.source));
  // eslint-disable-next-line solid/no-innerhtml -- sanitised by renderMarkdown
  return <div class="skill-markdown" data-testid="skill-rendered" innerHTML={html()} />;
}
