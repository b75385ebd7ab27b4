import { describe, expect, it } from 'vitest';
import { parseFrontmatter } from './frontmatter';

describe('parseFrontmatter', () => {
  it('reads the generator frontmatter: JSON-quoted scalars, block lists, numbers', () => {
    const source = [
      '---',
      'name: scope-discipline',
      'description: "Declare scope: before coder delegation"',
      'triggers:',
      '  - coder delegation',
      '  - "edit: source files"',
      'source_knowledge_ids:',
      '  - 9b1d7e52-0c3a-4e8f-a6b2-71d4c9e0f385',
      'generated_at: 2026-07-01T14:00:00.000Z',
      'confidence: 0.88',
      'status: draft',
      'version: 2',
      '---',
      '',
      '# Declare scope',
    ].join('\n');
    const parsed = parseFrontmatter(source);
    expect(parsed.problems).toEqual([]);
    expect(parsed.frontmatter).toEqual({
      name: 'scope-discipline',
      description: 'Declare scope: before coder delegation',
      triggers: ['coder delegation', 'edit: source files'],
      source_knowledge_ids: ['9b1d7e52-0c3a-4e8f-a6b2-71d4c9e0f385'],
      generated_at: '2026-07-01T14:00:00.000Z',
      confidence: 0.88,
      status: 'draft',
      version: 2,
    });
    expect(parsed.body).toBe('\n# Declare scope');
  });

  it('accepts a BOM, CRLF and inline arrays (JSON and bare)', () => {
    const parsed = parseFrontmatter('\uFEFF---\r\ntriggers: ["a", "b"]\r\ntargets: [skills, knowledge]\r\nempty: []\r\n---\r\nbody');
    expect(parsed.frontmatter).toEqual({ triggers: ['a', 'b'], targets: ['skills', 'knowledge'], empty: [] });
    expect(parsed.body).toBe('body');
  });

  it('reports files without frontmatter and lines it cannot read', () => {
    expect(parseFrontmatter('# just markdown').frontmatter).toBeNull();
    expect(parseFrontmatter('---\nname: x\n').problems).toEqual(['frontmatter starts with --- but never ends']);
    expect(parseFrontmatter('---\nname: x\nthis is not yaml\n---\n').problems).toEqual(['line 3: expected "key: value", got "this is not yaml"']);
  });
});
