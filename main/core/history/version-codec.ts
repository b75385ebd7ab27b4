import crypto from 'node:crypto';
import zlib from 'node:zlib';

/** A delta chain never gets longer than this, so reading any version inflates at most this many. */
export const MAX_DELTA_DEPTH = 16;

export const sha256 = (text: string): string => crypto.createHash('sha256').update(text).digest('hex');

export interface EncodedVersion {
  base: string | null;
  depth: number;
  data: Buffer;
}

/**
 * Deflates a line, with the entry's previous version as the dictionary when that is smaller: an
 * update that changes a counter then costs a few bytes, since the compressor refers back to every
 * unchanged run of the previous line.
 */
export function encodeVersion(text: string, previous: { sha: string; text: string; depth: number } | null): EncodedVersion {
  const bytes = Buffer.from(text, 'utf8');
  const plain = zlib.deflateRawSync(bytes);
  if (!previous || previous.depth + 1 > MAX_DELTA_DEPTH) return { base: null, depth: 0, data: plain };
  const delta = zlib.deflateRawSync(bytes, { dictionary: Buffer.from(previous.text, 'utf8') });
  return delta.length < plain.length ? { base: previous.sha, depth: previous.depth + 1, data: delta } : { base: null, depth: 0, data: plain };
}

export function decodeVersion(data: Buffer, baseText: string | null): string {
  const options = baseText === null ? {} : { dictionary: Buffer.from(baseText, 'utf8') };
  return zlib.inflateRawSync(data, options).toString('utf8');
}
