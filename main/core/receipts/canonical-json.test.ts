import { describe, expect, it } from 'vitest';
import { canonicalJson, receiptRecordHash, sha256Hex } from './canonical-json';

describe('canonicalJson', () => {
  it('sorts keys by code unit at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null }, B: true })).toBe('{"B":true,"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}');
  });
  it('orders by UTF-16 code units, not locale', () => {
    expect(canonicalJson({ 'é': 1, z: 2, '\u{1F600}': 3, 'Z': 4 })).toBe('{"Z":4,"z":2,"é":1,"\u{1F600}":3}');
  });
  it('uses JSON.stringify forms for strings and numbers', () => {
    expect(canonicalJson({ s: 'line\nbreak "q" \u2028', n: 1e21, f: 0.1, neg: -0 })).toBe('{"f":0.1,"n":1e+21,"neg":0,"s":"line\\nbreak \\"q\\" \u2028"}');
  });
  it('refuses non-finite numbers', () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(/non-finite/);
  });
  it('hashes a record without its hash field', () => {
    const record = { seq: 1, hash: 'whatever', prev: '0' };
    expect(receiptRecordHash(record)).toBe(sha256Hex('{"prev":"0","seq":1}'));
  });
});
