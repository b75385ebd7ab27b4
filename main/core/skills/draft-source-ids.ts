/**
 * The source ids `skill_apply` stamps, read with the plugin's own rule (parseDraftFrontmatter,
 * docs/plugin-formats.md#skill-frontmatter) rather than a general frontmatter parser, because the
 * two disagree on real drafts:
 *
 * - the frontmatter is what lies between a first line `---` (a BOM and trailing blanks allowed)
 *   and the next line that is `---` (trailing blanks allowed); CRLF reads as LF; no closed block →
 *   no ids;
 * - a line exactly `generated_from_knowledge:` starts appending to the list, without clearing it;
 * - a line exactly `source_knowledge_ids:` CLEARS the list and starts appending, so a
 *   `generated_from_knowledge` id absent from `source_knowledge_ids` (written before it, as the
 *   generator does) is never stamped;
 * - list items are indented `- <1–64 non-space characters>`; any other line ends the list;
 * - inline lists (`source_knowledge_ids: [a]`) are not read.
 *
 * The plugin keeps duplicates; stamping an id twice is stamping it once, so they are dropped here.
 */
export function draftSourceIds(content: string): string[] {
  const text = content.charCodeAt(0) === 0xfeff ? content.slice(1) : content;
  const open = /^---[ \t]*\r?\n/.exec(text);
  if (!open) return [];
  const rest = text.slice(open[0].length);
  const close = /\n---[ \t]*(\r?\n|$)/.exec(rest);
  if (!close) return [];
  let ids: string[] = [];
  let inList = false;
  for (const line of rest.slice(0, close.index).replace(/\r\n/g, '\n').split('\n')) {
    if (inList) {
      const item = /^\s+-\s+(\S{1,64})\s*$/.exec(line);
      if (item) {
        ids.push(item[1] as string);
        continue;
      }
      inList = false;
    }
    if (/^generated_from_knowledge:\s*$/.test(line)) inList = true;
    else if (/^source_knowledge_ids:\s*$/.test(line)) {
      ids = [];
      inList = true;
    }
  }
  return [...new Set(ids)];
}
