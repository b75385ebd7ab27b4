/**
 * A 32-bit hash of a line's bytes, for the store index: it keeps no copy of a JSONL line, only
 * where it sits and this hash, and a line read back is served only when its bytes still hash to
 * it (store-index/stored-lines.ts). Computed for every line of every ingest, so it reads the
 * bytes four at a time (a per-character hash of the decoded text cost a tenth of a million-line
 * ingest), in two lanes that multiply independently so the CPU overlaps them. Words are read
 * from the line's first byte whatever its alignment in memory: the same bytes hash the same in
 * the reader's chunk and in a block read back later.
 */

const views = new WeakMap<ArrayBufferLike, { words: DataView; bytes: Uint8Array }>();

function viewsOf(memory: ArrayBufferLike): { words: DataView; bytes: Uint8Array } {
  let view = views.get(memory);
  if (!view) {
    view = { words: new DataView(memory), bytes: new Uint8Array(memory) };
    views.set(memory, view);
  }
  return view;
}

/** The hash of `bytes` (a line without its newline, BOM and final `\r`). */
export function bytesHash(bytes: Uint8Array): number {
  const start = bytes.byteOffset;
  const end = start + bytes.length;
  const { words, bytes: all } = viewsOf(bytes.buffer);
  let h = 0x811c9dc5 ^ bytes.length;
  let g = 0x9e3779b9;
  let i = start;
  for (; i + 8 <= end; i += 8) {
    h = Math.imul(h ^ words.getInt32(i, true), 0x01000193);
    g = Math.imul(g ^ words.getInt32(i + 4, true), 0x85ebca6b);
  }
  for (; i < end; i++) h = Math.imul(h ^ all[i]!, 0x01000193);
  h ^= Math.imul(g ^ (g >>> 16), 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  return (h ^ (h >>> 13)) | 0;
}

/** The hash of a line's text (its UTF-8 bytes), for lines not at hand as bytes. */
export const lineHash = (text: string): number => bytesHash(Buffer.from(text, 'utf8'));
