/**
 * The frontmatter dialect the plugin writes for SKILL.md, skill drafts, motif proposals and
 * skill-improver proposals: `key: value` lines between `---` fences; scalars containing `:`,
 * `#`, a quote or a newline are JSON-quoted; lists are YAML block lists (`- item`) or inline
 * arrays (`[a, b]`, JSON or bare). A BOM and CRLF are accepted. Not a general YAML parser.
 */
interface ParsedFrontmatter {
  /** null when the file has no frontmatter block. */
  frontmatter: Record<string, unknown> | null;
  body: string;
  /** Lines the parser could not read, e.g. `line 4: expected "key: value"`. */
  problems: string[];
}

function scalar(raw: string): unknown {
  const text = raw.trim();
  if (text === '') return '';
  if (text.startsWith('"')) {
    try {
      return JSON.parse(text);
    } catch {
      return text.replace(/^"|"$/g, '');
    }
  }
  if (text.startsWith("'") && text.endsWith("'") && text.length >= 2) return text.slice(1, -1).replace(/''/g, "'");
  if (text.startsWith('[') && text.endsWith(']')) {
    try {
      const parsed = JSON.parse(text);
      if (Array.isArray(parsed)) return parsed;
    } catch {
      // bare inline list: [a, b]
    }
    const inner = text.slice(1, -1).trim();
    return inner === '' ? [] : inner.split(',').map((item) => scalar(item));
  }
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null' || text === '~') return null;
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  return text;
}

export function parseFrontmatter(source: string): ParsedFrontmatter {
  const text = source.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const lines = text.split('\n');
  if (lines[0]?.trim() !== '---') return { frontmatter: null, body: text, problems: [] };
  const close = lines.findIndex((line, i) => i > 0 && line.trim() === '---');
  if (close === -1) return { frontmatter: null, body: text, problems: ['frontmatter starts with --- but never ends'] };

  const frontmatter: Record<string, unknown> = {};
  const problems: string[] = [];
  let listKey: string | null = null;
  for (let i = 1; i < close; i++) {
    const line = lines[i] as string;
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const item = /^\s*-\s?(.*)$/.exec(line);
    if (item && listKey !== null) {
      (frontmatter[listKey] as unknown[]).push(scalar(item[1] ?? ''));
      continue;
    }
    const pair = /^([A-Za-z0-9_.-]+):(?:\s(.*)|)$/.exec(line);
    if (!pair) {
      problems.push(`line ${i + 1}: expected "key: value", got ${JSON.stringify(line.slice(0, 60))}`);
      listKey = null;
      continue;
    }
    const key = pair[1] as string;
    const value = pair[2] ?? '';
    if (value.trim() === '') {
      frontmatter[key] = [];
      listKey = key;
    } else {
      frontmatter[key] = scalar(value);
      listKey = null;
    }
  }
  // A `key:` with no following items is an empty value, not an empty list.
  for (const [key, value] of Object.entries(frontmatter)) {
    if (Array.isArray(value) && value.length === 0 && !/\[\s*\]/.test(lines.slice(1, close).find((l) => l.startsWith(`${key}:`)) ?? '')) {
      frontmatter[key] = '';
    }
  }
  return { frontmatter, body: lines.slice(close + 1).join('\n'), problems };
}
