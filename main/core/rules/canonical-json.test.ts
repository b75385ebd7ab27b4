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
  it('orders integer-like keys by code unit, not the numeric order JavaScript objects use', () => {
    expect(canonicalJson({ a: 1, 9: 2, 10: 3, '-1': 4 })).toBe('{"-1":4,"10":3,"9":2,"a":1}');
  });
  it('sorts keys inside arrays of objects inside objects', () => {
    expect(canonicalJson({ z: [{ b: { d: 1, c: [{ f: 1, e: 2 }] }, a: 0 }], y: {} })).toBe('{"y":{},"z":[{"a":0,"b":{"c":[{"e":2,"f":1}],"d":1}}]}');
  });
  it('escapes control characters and lone surrogates as \\u00xx, and keeps other characters literal', () => {
    expect(canonicalJson({ s: '\u0000\u001f\t\u007f\ud800é' })).toBe('{"s":"\\u0000\\u001f\\t\u007f\\ud800é"}');
    expect(canonicalJson(JSON.parse('{"s":"caf\\u00e9"}'))).toBe('{"s":"café"}');
  });
  it('writes numbers in their shortest round-trip form', () => {
    expect(canonicalJson([1.0, 2.5e-7, 1e-6, 5e-324, 2 ** 53, 1.5e300, -1.25, 100])).toBe('[1,2.5e-7,0.000001,5e-324,9007199254740992,1.5e+300,-1.25,100]');
  });
  it('refuses non-finite numbers', () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(/non-finite/);
  });
  it('hashes a record without its hash field', () => {
    const record = { seq: 1, hash: 'whatever', prev: '0' };
    expect(receiptRecordHash(record)).toBe(sha256Hex('{"prev":"0","seq":1}'));
  });
});
