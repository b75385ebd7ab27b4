import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { FORBID_TAGS, imageNote, linkNote, stripFrontmatter } from './markdown';

// The DOMPurify pass needs a DOM: it is exercised in real Chromium by e2e/skills.spec.ts
// ("renders a hostile SKILL.md inert"). Here: the parts that are plain functions.
describe('SKILL.md rendering, the parts outside the DOM', () => {
  it('drops the frontmatter (shown as fields instead), with BOM and CRLF', () => {
    expect(stripFrontmatter('\uFEFF---\r\nname: x\r\nstatus: draft\r\n---\r\n\r\n# Title\r\n')).toBe('\n# Title\n');
    expect(stripFrontmatter('# no frontmatter')).toBe('# no frontmatter');
    expect(stripFrontmatter('---\nnever closed')).toBe('---\nnever closed');
  });

  it('marked passes raw HTML through, which is why everything goes through the sanitiser', () => {
    const html = marked.parse('<script>alert(1)</script>\n\n[x](javascript:alert(1)) <img src="https://evil.test/p.png" onerror="alert(1)">', { async: false }) as string;
    expect(html).toContain('<script>');
    expect(html).toContain('onerror');
  });

  it('notes say where a link or image pointed without making it live', () => {
    expect(linkNote('javascript:alert(1)')).toBe('link not followed: javascript:alert(1)');
    expect(imageNote('https://evil.test/p.png', 'tracker')).toBe('[image not loaded: tracker — https://evil.test/p.png]');
    expect(FORBID_TAGS).toEqual(expect.arrayContaining(['style', 'form', 'iframe', 'svg', 'link', 'meta', 'base']));
  });
});
