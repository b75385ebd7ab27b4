import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readJsonl, type JsonlLine } from './jsonl-reader';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jsonl-reader-'));
});
afterEach(() => {
  fs.chmodSync(dir, 0o700);
  fs.rmSync(dir, { recursive: true, force: true });
});

function write(name: string, content: string | Buffer): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
}

async function readAll(file: string, options: Parameters<typeof readJsonl>[1] = {}) {
  const lines: JsonlLine[] = [];
  const result = await readJsonl(file, { ...options, onLine: (l) => lines.push(l) });
  return { result, lines };
}

describe('readJsonl', () => {
  it('reads each line with its line number, offset and raw text', async () => {
    const file = write('a.jsonl', '{"id":"a"}\n{"id":"b","n":2}\n');
    const { result, lines } = await readAll(file);
    expect(result.status).toBe('ok');
    expect(lines.map((l) => [l.line, l.offset, l.value.id, l.text])).toEqual([
      [1, 0, 'a', '{"id":"a"}'],
      [2, 11, 'b', '{"id":"b","n":2}'],
    ]);
    expect(result).toMatchObject({ lines: 2, records: 2, defectCount: 0, endOffset: 28, nextLine: 3, pendingTail: null });
  });

  it('tolerates CRLF line endings', async () => {
    const file = write('crlf.jsonl', '{"id":"a"}\r\n{"id":"b"}\r\n');
    const { result, lines } = await readAll(file);
    expect(lines.map((l) => l.value.id)).toEqual(['a', 'b']);
    expect(lines[1]?.offset).toBe(12);
    expect(lines[0]?.text).toBe('{"id":"a"}');
    expect(result.defectCount).toBe(0);
  });

  it('tolerates a UTF-8 BOM at the start of the file', async () => {
    const file = write('bom.jsonl', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"id":"a"}\n{"id":"b"}\n')]));
    const { result, lines } = await readAll(file);
    expect(lines.map((l) => l.value.id)).toEqual(['a', 'b']);
    expect(lines[1]?.offset).toBe(14);
    expect(result.defectCount).toBe(0);
  });

  it('skips blank lines but keeps counting physical line numbers', async () => {
    const file = write('blank.jsonl', '\n{"id":"a"}\n   \n\n{"id":"b"}\n');
    const { result, lines } = await readAll(file);
    expect(lines.map((l) => l.line)).toEqual([2, 5]);
    expect(result).toMatchObject({ lines: 5, blankLines: 3, records: 2, defectCount: 0 });
  });

  it('reports an invalid JSON line in the middle and keeps the lines around it', async () => {
    const file = write('mid.jsonl', '{"id":"a"}\n{"id": broken\n{"id":"c"}\n');
    const { result, lines } = await readAll(file);
    expect(lines.map((l) => l.value.id)).toEqual(['a', 'c']);
    expect(result.defects).toHaveLength(1);
    expect(result.defects[0]).toMatchObject({ file, line: 2, offset: 11, kind: 'invalid_json' });
    expect(result.defects[0]?.reason).toMatch(/^invalid JSON: /);
  });

  it('reports lines that are valid JSON but not objects', async () => {
    const file = write('nonobj.jsonl', '[1,2]\n"text"\n42\nnull\n{"id":"ok"}\n');
    const { result, lines } = await readAll(file);
    expect(lines).toHaveLength(1);
    expect(result.defects.map((d) => [d.line, d.kind, d.reason])).toEqual([
      [1, 'not_object', 'line is an array, not a JSON object'],
      [2, 'not_object', 'line is a string, not a JSON object'],
      [3, 'not_object', 'line is a number, not a JSON object'],
      [4, 'not_object', 'line is null, not a JSON object'],
    ]);
  });

  it('reports invalid UTF-8 and keeps the next line', async () => {
    const bad = Buffer.concat([Buffer.from('{"id":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n')]);
    const file = write('utf8.jsonl', Buffer.concat([Buffer.from('{"id":"a"}\n'), bad, Buffer.from('{"id":"é"}\n')]));
    const { result, lines } = await readAll(file);
    expect(lines.map((l) => l.value.id)).toEqual(['a', 'é']);
    expect(result.defects).toEqual([{ file, line: 2, offset: 11, kind: 'invalid_utf8', reason: 'line is not valid UTF-8; skipped' }]);
  });

  it('reports a 5 MB line as over-long and loads the rest, across chunk boundaries', async () => {
    const big = JSON.stringify({ id: 'big', lesson: 'x'.repeat(5 * 1024 * 1024) });
    const file = write('big.jsonl', `{"id":"a"}\n${big}\n{"id":"c"}\n`);
    const { result, lines } = await readAll(file, { chunkBytes: 64 * 1024 });
    expect(lines.map((l) => l.value.id)).toEqual(['a', 'c']);
    expect(lines[1]).toMatchObject({ line: 3, offset: 11 + big.length + 1 });
    expect(result.defects).toHaveLength(1);
    expect(result.defects[0]).toMatchObject({ line: 2, offset: 11, kind: 'line_too_long' });
    expect(result.defects[0]?.reason).toContain(`${big.length} bytes, over the 4194304-byte limit`);
  });

  it('honours a configurable line limit', async () => {
    const file = write('limit.jsonl', `{"id":"${'y'.repeat(100)}"}\n{"id":"b"}\n`);
    const { result, lines } = await readAll(file, { maxLineBytes: 50 });
    expect(lines.map((l) => l.value.id)).toEqual(['b']);
    expect(result.defects[0]?.kind).toBe('line_too_long');
  });

  it('joins lines that straddle chunk boundaries', async () => {
    const records = Array.from({ length: 500 }, (_, i) => JSON.stringify({ id: `r${i}`, pad: 'p'.repeat(i % 37) }));
    const file = write('chunks.jsonl', records.join('\n') + '\n');
    const { result, lines } = await readAll(file, { chunkBytes: 4096 });
    expect(lines.map((l) => l.value.id)).toEqual(records.map((_, i) => `r${i}`));
    let offset = 0;
    for (const [i, l] of lines.entries()) {
      expect(l.offset).toBe(offset);
      offset += (records[i] as string).length + 1;
    }
    expect(result.endOffset).toBe(fs.statSync(file).size);
  });

  it('keeps an unterminated final line pending; the completing append yields it exactly once', async () => {
    const file = write('tail.jsonl', '{"id":"a"}\n{"id":"b","les');
    const first = await readAll(file);
    expect(first.lines.map((l) => l.value.id)).toEqual(['a']);
    expect(first.result.pendingTail).toEqual({ line: 2, offset: 11, bytes: 14 });
    expect(first.result.defects).toEqual([
      expect.objectContaining({ line: 2, offset: 11, kind: 'incomplete_tail' }),
    ]);
    expect(first.result.endOffset).toBe(11);

    fs.appendFileSync(file, 'son":"x"}\n{"id":"c"}\n');
    const second = await readAll(file, { fromOffset: first.result.endOffset, firstLine: first.result.nextLine });
    expect(second.lines.map((l) => [l.line, l.value.id])).toEqual([
      [2, 'b'],
      [3, 'c'],
    ]);
    expect(second.result.defectCount).toBe(0);
    expect([...first.lines, ...second.lines].filter((l) => l.value.id === 'b')).toHaveLength(1);
  });

  it('reads an empty file as zero lines without defects', async () => {
    const file = write('empty.jsonl', '');
    const { result, lines } = await readAll(file);
    expect(lines).toEqual([]);
    expect(result).toMatchObject({ status: 'ok', lines: 0, records: 0, defectCount: 0, endOffset: 0 });
  });

  it('reports a missing file, a directory and an unreadable file by status, without throwing', async () => {
    const missing = await readJsonl(path.join(dir, 'nope.jsonl'));
    expect(missing).toMatchObject({ status: 'missing', records: 0 });
    expect(missing.message).toContain('does not exist');

    fs.mkdirSync(path.join(dir, 'knowledge.jsonl'));
    const directory = await readJsonl(path.join(dir, 'knowledge.jsonl'));
    expect(directory.status).toBe('not_a_file');
    expect(directory.message).toContain('is a directory');

    if (process.getuid?.() !== 0) {
      const locked = write('locked.jsonl', '{"id":"a"}\n');
      fs.chmodSync(locked, 0o000);
      const unreadable = await readJsonl(locked);
      expect(unreadable.status).toBe('unreadable');
      expect(unreadable.message).toContain('permission denied');
    }
  });

  it('keeps the first N defects but counts and streams all of them', async () => {
    const file = write('many.jsonl', 'nope\n'.repeat(30) + '{"id":"a"}\n');
    const streamed: number[] = [];
    const result = await readJsonl(file, { maxCollectedDefects: 5, onDefect: (d) => streamed.push(d.line) });
    expect(result.defects).toHaveLength(5);
    expect(result.defectCount).toBe(30);
    expect(streamed).toHaveLength(30);
    expect(result.records).toBe(1);
  });

  it('reads the file it opened even when the path is deleted while reading', async () => {
    const records = Array.from({ length: 2000 }, (_, i) => JSON.stringify({ id: `r${i}` }));
    const file = write('deleted.jsonl', records.join('\n') + '\n');
    let removed = false;
    const { result, lines } = await readAll(file, { chunkBytes: 4096 });
    expect(lines).toHaveLength(2000);
    // Now delete during a read: the open handle keeps the old bytes readable.
    const seen: string[] = [];
    const during = await readJsonl(file, {
      chunkBytes: 4096,
      onLine: (l) => {
        seen.push(String(l.value.id));
        if (!removed) {
          fs.unlinkSync(file);
          removed = true;
        }
      },
    });
    expect(removed).toBe(true);
    expect(during.status).toBe('ok');
    expect(seen).toHaveLength(2000);
    expect(result.identity?.ino).toBe(during.identity?.ino);
  });
});
