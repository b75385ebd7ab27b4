import { describe, expect, it } from 'vitest';
import { draftSourceIds } from './draft-source-ids';

const draft = (lines: string[]) => ['---', 'name: scope', 'description: Scope', ...lines, 'status: draft', '---', '', 'body', '- not-an-id-list-item'].join('\n');

/** The plugin's parseDraftFrontmatter rule (docs/plugin-formats.md#skill-frontmatter). */
describe('draftSourceIds reads the ids the plugin stamps', () => {
  it('a generated_from_knowledge id missing from source_knowledge_ids is not stamped: source_knowledge_ids starts the list afresh', () => {
    expect(draftSourceIds(draft(['generated_from_knowledge:', '  - k1', '  - h1', '  - x9', 'source_knowledge_ids:', '  - k1', '  - h1']))).toEqual(['k1', 'h1']);
  });

  it('legacy drafts with only generated_from_knowledge stamp those ids', () => {
    expect(draftSourceIds(draft(['generated_from_knowledge:', '  - k1', '  - k2']))).toEqual(['k1', 'k2']);
  });

  it('generated_from_knowledge after source_knowledge_ids adds to the list (it never resets it)', () => {
    expect(draftSourceIds(draft(['source_knowledge_ids:', '  - k1', 'generated_from_knowledge:', '  - x9']))).toEqual(['k1', 'x9']);
  });

  it('the last source_knowledge_ids block wins; an empty one empties the list', () => {
    expect(draftSourceIds(draft(['source_knowledge_ids:', '  - k1', 'source_knowledge_ids:', '  - k2']))).toEqual(['k2']);
    expect(draftSourceIds(draft(['generated_from_knowledge:', '  - k1', 'source_knowledge_ids:']))).toEqual([]);
  });

  it('only indented "- id" items of ≤64 non-space characters count; any other line ends the list', () => {
    expect(draftSourceIds(draft(['source_knowledge_ids:', '  - k1', '- k2', '  - k3']))).toEqual(['k1']);
    expect(draftSourceIds(draft(['source_knowledge_ids:', `  - ${'a'.repeat(65)}`, '  - k2']))).toEqual([]);
    expect(draftSourceIds(draft(['source_knowledge_ids:', '', '  - k2']))).toEqual([]);
  });

  it('an inline list is not read (the plugin matches only "source_knowledge_ids:" alone on its line)', () => {
    expect(draftSourceIds(draft(["source_knowledge_ids: ['k1']", 'generated_from_knowledge: [k2]']))).toEqual([]);
  });

  it('a BOM and CRLF are accepted; no frontmatter, or an unclosed one, has no ids', () => {
    expect(draftSourceIds(`\uFEFF${draft(['source_knowledge_ids:', '  - k1'])}`.replace(/\n/g, '\r\n'))).toEqual(['k1']);
    expect(draftSourceIds('source_knowledge_ids:\n  - k1\n')).toEqual([]);
    expect(draftSourceIds('---\nsource_knowledge_ids:\n  - k1\n')).toEqual([]);
  });

  it('an id listed twice is stamped once', () => {
    expect(draftSourceIds(draft(['source_knowledge_ids:', '  - k1', '  - k1']))).toEqual(['k1']);
  });
});
