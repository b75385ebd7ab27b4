import { DirectiveRow } from '../../../shared/contract/knowledge';
import { SEARCHED_FIELDS } from './directive-list';

/**
 * Whether a kept Directives row holds a search text, read off its stored JSON (directive-row-codec.ts
 * packs a row as an array of its values in the contract's key order) without parsing it: a text
 * search after a re-open checks every row whose text holds the words somewhere, and decoding
 * 10,967 of 27,755 such rows for the check took the first search 55 ms of parsing and as much
 * again of garbage collection.
 *
 * It gives matchesText's answer (directive-list.ts: the needle in one of the searched fields'
 * strings) for a needle that JSON writes as is (no quote, backslash or control character, so no
 * line break: it cannot span two strings of the search text, which joins them with line breaks),
 * looking only inside the searched fields' string tokens, or null when the text alone cannot tell:
 * a searched string with an escape in it, or a shape it does not expect. The caller then decodes.
 */

const KEYS: readonly string[] = DirectiveRow.keyof().options;
const SEARCHED = KEYS.map((key) => (SEARCHED_FIELDS as readonly string[]).includes(key));
/** The last searched value: nothing after it is read. */
const LAST = Math.max(...SEARCHED_FIELDS.map((field) => KEYS.indexOf(field)));

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN = 0x5b;
const CLOSE = 0x5d;
const COMMA = 0x2c;

export function keptRowHolds(text: string, needle: string): boolean | null {
  if (text.charCodeAt(0) !== OPEN) return null;
  let at = 1;
  for (let index = 0; index <= LAST; index++) {
    const searched = SEARCHED[index]!;
    const c = text.charCodeAt(at);
    if (c === QUOTE) {
      const next = stringToken(text, at, searched, needle);
      if (typeof next !== 'number') return next;
      at = next;
    } else if (c === OPEN) {
      // A list of strings (the searched lists, and the agents and tools lists between them).
      at++;
      while (text.charCodeAt(at) !== CLOSE) {
        const next = text.charCodeAt(at) === QUOTE ? stringToken(text, at, searched, needle) : null;
        if (typeof next !== 'number') return next;
        at = next;
        if (text.charCodeAt(at) === COMMA) at++;
      }
      at++;
    } else {
      if (searched) return null;
      // A number, true, false or null: up to the next comma.
      const end = text.indexOf(',', at);
      if (end < 0) return null;
      at = end;
    }
    if (text.charCodeAt(at) !== COMMA) return index === KEYS.length - 1 ? false : null;
    at++;
  }
  return false;
}

/**
 * The string token opening at `at`: where the text goes on after it, or the answer when the token
 * decides it (a searched string holding the needle: true; an escape in one, or no closing quote: null).
 */
function stringToken(text: string, at: number, searched: boolean, needle: string): number | true | null {
  const end = stringEnd(text, at);
  if (end < 0) return null;
  if (searched) {
    const held = stringHolds(text, at + 1, end, needle);
    if (held !== false) return held;
  }
  return end + 1;
}

/** Where the string token opening at `open` (a quote) closes, or -1. */
function stringEnd(text: string, open: number): number {
  for (let at = text.indexOf('"', open + 1); at >= 0; at = text.indexOf('"', at + 1)) {
    let slashes = 0;
    while (text.charCodeAt(at - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return at;
  }
  return -1;
}

/** Whether the string between `from` and `to` holds `needle`; null when it has an escape (its JSON text is not its value). */
function stringHolds(text: string, from: number, to: number, needle: string): boolean | null {
  const slash = text.indexOf('\\', from);
  if (slash >= 0 && slash < to) return null;
  const found = text.indexOf(needle, from);
  return found >= 0 && found + needle.length <= to;
}
