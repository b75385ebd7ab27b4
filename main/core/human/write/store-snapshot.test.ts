import { describe, expect, it } from 'vitest';
import { snapshotBytes, withoutLines, withReplacedLines } from './store-snapshot';
import { withAppended } from './transaction';

const snap = (text: string) => snapshotBytes('/x/store.jsonl', Buffer.from(text));

describe('byte-exact line edits', () => {
  it('indexes non-blank lines, keeps unparseable ones, and finds duplicate ids', () => {
    const s = snap('{"id":"a"}\n\n{"id":"b"\n{"id":"a","v":2}\r\n[1]\n{"id":"c"}');
    expect(s.lines.map((l) => [l.index, l.id])).toEqual([[0, 'a'], [1, null], [2, 'a'], [3, null], [4, 'c']]);
    expect(s.byId.get('a')).toHaveLength(2);
    expect(s.fingerprint).toMatchObject({ entry_count: 3, line_count: 5, byte_length: 54 });
  });

  it('removes exactly the chosen lines, CRLF lines and a last line without newline included', () => {
    const text = '{"id":"a"}\r\n{"torn\n{"id":"b"}\n\n{"id":"c"}';
    const s = snap(text);
    const [a, , b, c] = s.lines;
    expect(withoutLines(s.bytes, [b!]).toString()).toBe('{"id":"a"}\r\n{"torn\n\n{"id":"c"}');
    expect(withoutLines(s.bytes, [a!, c!]).toString()).toBe('{"torn\n{"id":"b"}\n\n');
    expect(withoutLines(s.bytes, []).equals(s.bytes)).toBe(true);
  });

  it('replaces a line in place and appends without gluing onto a torn last line', () => {
    const s = snap('{"id":"a"}\n{"id":"b","status":"archived"}\n{"torn');
    expect(withReplacedLines(s.bytes, new Map([[s.lines[1]!, '{"id":"b","status":"established"}']])).toString()).toBe('{"id":"a"}\n{"id":"b","status":"established"}\n{"torn');
    expect(withAppended(s.bytes, ['{"id":"c"}']).toString()).toBe('{"id":"a"}\n{"id":"b","status":"archived"}\n{"torn\n{"id":"c"}\n');
    expect(withAppended(Buffer.alloc(0), ['{"id":"c"}']).toString()).toBe('{"id":"c"}\n');
  });
});
