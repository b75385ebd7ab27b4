/**
 * Credentials in store text. Agents write lessons from what they saw, and what they saw can hold a
 * connection string or a token. The console masks these shapes in everything that leaves the core
 * (rpc results and events, exports, CLI output); the stores and the index keep the exact text, so
 * search still matches it and a person can reveal one entry (audited).
 *
 * The shapes are deliberately narrow (a key's known prefix plus enough random-looking characters,
 * or a `name=value` pair whose name says secret) so that prose, URLs without a password, hashes
 * and ids pass untouched. None of them consumes a backslash or a quote, so masking text that is
 * itself JSON (a store line) leaves valid JSON.
 */

export const MASK = '•••';

export type CredentialKind = 'url_userinfo' | 'openai_key' | 'github_token' | 'aws_key' | 'slack_token' | 'bearer' | 'secret_pair';

/** Characters of a value that may be masked: never whitespace, quotes, backslashes or separators. */
const VALUE = `[^\\s&"'\`,;\\\\<>()\\[\\]{}]+`;
const SECRET_NAMES = 'password|passwd|pwd|passphrase|token|secret|api[_-]?key|access[_-]?key|secret[_-]?key|private[_-]?key|client[_-]?secret';

/**
 * One pass over the text: each alternative is a named group, and `keep` is what stays visible
 * before the mask. Order matters only where shapes overlap (a pair's value that is itself a key).
 */
const SHAPES = new RegExp(
  [
    // scheme://user:secret@host — the user stays, the password goes.
    `(?<url>\\b[a-z][a-z0-9+.-]*://[^\\s/@:"'\\\\]+:)[^\\s/@"'\\\\]+(?=@)`,
    // NAME=value, DB_PASSWORD=value, api_key="value" (name kept, value masked).
    `(?<pair>(?<![A-Za-z0-9])(?:[A-Za-z0-9]+[_-])*(?:${SECRET_NAMES})\\s*=\\s*)(?:"[^"\\\\\\s]+"|'[^'\\\\\\s]+'|\\\\"[^"\\\\\\s]+\\\\"|${VALUE})`,
    // Authorization: Bearer <token> (a token has a digit; "Bearer authentication" is prose).
    `(?<bearer>\\bBearer[ \\t]+)(?=[A-Za-z0-9._~+/=-]*\\d)[A-Za-z0-9._~+/=-]{8,}`,
    // OpenAI-style keys: sk-…, sk-proj-…, sk-ant-… with at least 20 random characters.
    `(?<openai>)(?<![A-Za-z0-9_-])sk-(?=[A-Za-z0-9_-]*\\d)[A-Za-z0-9_-]{20,}`,
    // GitHub tokens: ghp_/gho_/ghu_/ghs_/ghr_ and fine-grained github_pat_.
    `(?<github>)(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})`,
    // AWS access key ids.
    `(?<aws>)(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Za-z0-9])`,
    // Slack tokens.
    `(?<slack>)(?<![A-Za-z0-9_-])xox[abprs]-[A-Za-z0-9-]{10,}`,
  ].join('|'),
  'gi',
);

/** `Bearer` and the key prefixes are matched case-insensitively by the one regex; these must be exact. */
const CASE_SENSITIVE: Partial<Record<CredentialKind, RegExp>> = {
  openai_key: /^sk-/,
  github_token: /^(gh[pousr]_|github_pat_)/,
  aws_key: /^(AKIA|ASIA)[0-9A-Z]{16}$/,
  slack_token: /^xox[abprs]-/,
};

export interface CredentialMatch {
  kind: CredentialKind;
  /** Offset of the masked part (after the kept prefix) and its end. */
  start: number;
  end: number;
}

function kindOf(groups: Record<string, string | undefined>): { kind: CredentialKind; keep: string } {
  if (groups.url !== undefined) return { kind: 'url_userinfo', keep: groups.url };
  if (groups.pair !== undefined) return { kind: 'secret_pair', keep: groups.pair };
  if (groups.bearer !== undefined) return { kind: 'bearer', keep: groups.bearer };
  if (groups.openai !== undefined) return { kind: 'openai_key', keep: '' };
  if (groups.github !== undefined) return { kind: 'github_token', keep: '' };
  if (groups.aws !== undefined) return { kind: 'aws_key', keep: '' };
  return { kind: 'slack_token', keep: '' };
}

/**
 * A cheap first pass: every shape needs one of these, and most lines of store text have none, so
 * the full expression runs only on the lines that do (about 3× faster over a whole export).
 */
const TRIGGER = /:\/\/|=|sk-|gh[pousr]_|github_pat_|AKIA|ASIA|xox[abprs]-|bearer/i;

/** Every credential shape in the text (the part that masking replaces). */
export function findCredentials(text: string): CredentialMatch[] {
  const found: CredentialMatch[] = [];
  // Line by line: no shape spans a newline, and a line without a trigger is skipped whole.
  for (let lineStart = 0; lineStart <= text.length; ) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? text.length : newline;
    const line = lineStart === 0 && lineEnd === text.length ? text : text.slice(lineStart, lineEnd);
    if (TRIGGER.test(line)) findInLine(line, lineStart, found);
    lineStart = lineEnd + 1;
  }
  return found;
}

function findInLine(line: string, base: number, found: CredentialMatch[]): void {
  for (const match of line.matchAll(SHAPES)) {
    const { kind, keep } = kindOf(match.groups ?? {});
    const secret = match[0].slice(keep.length);
    if (CASE_SENSITIVE[kind] && !CASE_SENSITIVE[kind]!.test(secret)) continue;
    if (kind === 'bearer' && !/^bearer/i.test(keep)) continue;
    if (secret.replace(/^(\\"|["'])(.*)\1$/, '$2') === MASK) continue;
    const start = base + (match.index ?? 0) + keep.length;
    found.push({ kind, start, end: start + secret.length });
  }
}

/** The text with every credential replaced by `•••` (quoted values keep their quotes). */
export function maskCredentials(text: string): string {
  // Most strings of a result (ids, statuses, prose) have no trigger at all: one test, no allocation.
  if (text.length < 8 || !TRIGGER.test(text)) return text;
  return maskWithOffsets(text).text;
}

const unmoved = (original: number) => original;

/**
 * Masks and says where each original offset lands in the masked text, so that match ranges
 * computed on the stored text (full-text search highlights) still point at the same words.
 */
export function maskWithOffsets(text: string): { text: string; offset: (original: number) => number } {
  const found = text.length < 8 ? [] : findCredentials(text);
  if (found.length === 0) return { text, offset: unmoved };
  let out = '';
  let at = 0;
  const shifts: { start: number; end: number; maskedStart: number; maskedEnd: number }[] = [];
  for (const { start, end } of found) {
    const secret = text.slice(start, end);
    // A quoted value keeps its quotes, also JSON-escaped ones (`\"…\"` inside a store line).
    const quote = /^(\\"|["'])/.exec(secret)?.[0] ?? '';
    out += text.slice(at, start);
    const maskedStart = out.length;
    out += quote + MASK + quote;
    shifts.push({ start, end, maskedStart, maskedEnd: out.length });
    at = end;
  }
  out += text.slice(at);
  const offset = (original: number) => {
    let delta = 0;
    for (const s of shifts) {
      if (original >= s.end) delta = s.maskedEnd - s.end;
      else if (original > s.start) return s.maskedEnd; // inside a secret: the end of its mask
      else break;
    }
    return original + delta;
  };
  return { text: out, offset };
}

/** The console's own confirmation tokens (`skc1.…`) are not store text and must pass intact. */
const isConsoleToken = (text: string) => text.startsWith('skc1.');

/** Masks every string inside a JSON-like value (objects, arrays), returning a copy only where something changed. */
export function maskDeep<T>(value: T): T {
  if (typeof value === 'string') return (isConsoleToken(value) ? value : maskCredentials(value)) as T;
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const masked = maskDeep(value[i]);
      if (masked !== value[i]) (copy ??= value.slice())[i] = masked;
    }
    return (copy ?? value) as T;
  }
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const highlighted = maskHighlighted(value as Record<string, unknown>);
    if (highlighted) return highlighted as T;
    const record = value as Record<string, unknown>;
    let copy: Record<string, unknown> | null = null;
    // for…in over a plain object's own keys: Object.entries would allocate a pair per field.
    for (const key in record) {
      const item = record[key];
      const masked = maskDeep(item);
      if (masked !== item) (copy ??= { ...record })[key] = masked;
    }
    return (copy ?? value) as T;
  }
  return value;
}

type Range = [number, number];

/** An entry list item: its `lesson` masked and its search highlights (`match.lesson`) moved with it. */
function maskHighlighted(item: Record<string, unknown>): Record<string, unknown> | null {
  const match = item.match as { lesson?: unknown } | null | undefined;
  if (typeof item.lesson !== 'string' || !match || !Array.isArray(match.lesson) || match.lesson.length === 0) return null;
  const { text, offset } = maskWithOffsets(item.lesson);
  const { lesson: _lesson, match: _match, ...rest } = item;
  const others = maskDeep(rest);
  const ranges = (match.lesson as Range[]).map(([start, end]) => [offset(start), offset(end)] as Range).filter(([start, end]) => end > start);
  return { ...others, lesson: text, match: { ...maskDeep(match), lesson: ranges } };
}
