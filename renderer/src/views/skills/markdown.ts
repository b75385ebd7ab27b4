import DOMPurify from 'dompurify';
import { marked } from 'marked';

/**
 * SKILL.md text is written by agents: it is rendered as inert HTML. marked turns the markdown
 * into HTML, then DOMPurify removes scripts, event handlers and active content; on top of that
 * every link loses its target (kept as text in `data-href`, shown on hover) and every image its
 * source, so nothing is fetched and nothing navigates.
 */
export const FORBID_TAGS = ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'frame', 'object', 'embed', 'svg', 'math', 'link', 'meta', 'base', 'video', 'audio', 'source', 'picture'];
const FORBID_ATTR = ['style', 'srcset', 'action', 'formaction', 'background', 'poster', 'ping'];

/** The body of a SKILL.md without its frontmatter block (shown separately as fields). */
export function stripFrontmatter(source: string): string {
  const text = source.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (!text.startsWith('---\n')) return text;
  const close = text.indexOf('\n---', 4);
  if (close === -1) return text;
  const after = text.indexOf('\n', close + 4);
  return after === -1 ? '' : text.slice(after + 1);
}

/** What an inert link shows on hover: where it would have gone, never a live target. */
export const linkNote = (href: string | null): string => (href ? `link not followed: ${href.slice(0, 300)}` : 'link not followed');
export const imageNote = (src: string | null, alt: string | null): string => `[image not loaded${alt ? `: ${alt.slice(0, 120)}` : ''}${src ? ` — ${src.slice(0, 200)}` : ''}]`;

let purifier: ReturnType<typeof DOMPurify> | null = null;

function sanitizer(): ReturnType<typeof DOMPurify> {
  if (purifier) return purifier;
  const instance = DOMPurify(window);
  // DOMPurify drops an unsafe href (javascript:) before the later hook runs: note it first.
  const original = new WeakMap<Element, string | null>();
  instance.addHook('beforeSanitizeAttributes', (node) => {
    const element = node as Element;
    if (element.tagName === 'A') original.set(element, element.getAttribute('href'));
  });
  instance.addHook('afterSanitizeAttributes', (node) => {
    const element = node as Element;
    if (element.tagName === 'A') {
      const href = original.get(element) ?? element.getAttribute('href');
      element.removeAttribute('href');
      element.removeAttribute('target');
      element.setAttribute('data-href', href ?? '');
      element.setAttribute('title', linkNote(href));
      element.setAttribute('class', 'inert-link');
    }
    if (element.tagName === 'IMG') {
      const note = element.ownerDocument.createElement('span');
      note.className = 'inert-image';
      note.textContent = imageNote(element.getAttribute('src'), element.getAttribute('alt'));
      element.replaceWith(note);
    }
  });
  purifier = instance;
  return instance;
}

export function renderMarkdown(source: string): string {
  const html = marked.parse(stripFrontmatter(source), { async: false, gfm: true }) as string;
  return sanitizer().sanitize(html, { FORBID_TAGS, FORBID_ATTR, ALLOW_DATA_ATTR: false, ADD_ATTR: ['data-href'] }) as string;
}
