import { describe, expect, it } from 'vitest';
import { findCredentials, maskCredentials, maskDeep } from './credentials';

/** One line per shape the console masks, with what must remain. */
const SHAPES: { text: string; masked: string; kind: string }[] = [
  { kind: 'url_userinfo', text: 'connect with postgres://user:secret@db/x first', masked: 'connect with postgres://user:•••@db/x first' },
  { kind: 'url_userinfo', text: 'REDIS_URL was redis://default:p4ss-w0rd@cache.internal:6379/0', masked: 'REDIS_URL was redis://default:•••@cache.internal:6379/0' },
  { kind: 'openai_key', text: 'the key sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8t leaked', masked: 'the key ••• leaked' },
  { kind: 'openai_key', text: 'OPENAI key sk-9f8e7d6c5b4a39281706f5e4d3c2 in the log', masked: 'OPENAI key ••• in the log' },
  { kind: 'github_token', text: 'used ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8 to push', masked: 'used ••• to push' },
  { kind: 'github_token', text: 'pat github_pat_11ABCDEFG0abcdefghij_klmnopqrstuvwxyz0123 worked', masked: 'pat ••• worked' },
  { kind: 'aws_key', text: 'AWS id AKIAIOSFODNN7EXAMPLE in env', masked: 'AWS id ••• in env' },
  { kind: 'slack_token', text: 'slack xoxb-123456789012-abcdefghijkl posted', masked: 'slack ••• posted' },
  { kind: 'bearer', text: 'curl -H "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc123" api', masked: 'curl -H "Authorization: Bearer •••" api' },
  { kind: 'secret_pair', text: 'set password=hunter2 in the fixture', masked: 'set password=••• in the fixture' },
  { kind: 'secret_pair', text: 'call /hook?token=abc123def&page=2', masked: 'call /hook?token=•••&page=2' },
  { kind: 'secret_pair', text: 'export DB_PASSWORD=Tr0ub4dor and API_KEY="k-123-xyz"', masked: 'export DB_PASSWORD=••• and API_KEY="•••"' },
  { kind: 'secret_pair', text: 'client secret=s3cr3t; api_key = 12345678', masked: 'client secret=•••; api_key = •••' },
];

const ORDINARY = [
  'https://example.com/path',
  'see https://docs.example.com:8443/a/b?x=1#y for details',
  'mailto:ops@example.com and git@github.com:org/repo.git',
  'the sk word: sk is not a key, nor is sk-learn or task-runner-configuration-2024',
  'commit 3f786850e387550fdab836ed7e6dc881de23001b fixed it (sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855)',
  'uuid 7d444840-9dc0-11d1-b245-5ffdce74fad2 and ids like K-0042',
  'Bearer authentication needs a bearer token in the Authorization header',
  'the token budget is 4000 tokens; password rotation is monthly; secret sauce',
  'ghp_ prefixes mark GitHub tokens; AKIA marks AWS key ids',
  'Use the "password" field of the form; token: see the docs',
];

describe('credential masking', () => {
  it.each(SHAPES)('masks $kind: $text', ({ text, masked, kind }) => {
    expect(maskCredentials(text)).toBe(masked);
    expect(findCredentials(text).map((m) => m.kind)).toContain(kind);
  });

  it.each(ORDINARY)('leaves ordinary text alone: %s', (text) => {
    expect(findCredentials(text)).toEqual([]);
    expect(maskCredentials(text)).toBe(text);
  });

  it('is idempotent', () => {
    for (const { masked } of SHAPES) expect(maskCredentials(masked)).toBe(masked);
  });

  it('keeps a JSON store line valid JSON', () => {
    const line = JSON.stringify({ id: 'e1', lesson: 'use postgres://app:pa55@db/x with token=abc"123 and "quotes\\" here' });
    const masked = maskCredentials(line);
    expect(() => JSON.parse(masked) as unknown).not.toThrow();
    const quoted = maskCredentials(JSON.stringify({ lesson: 'set API_KEY="k-123-xyz9" there' }));
    expect(JSON.parse(quoted)).toEqual({ lesson: 'set API_KEY="•••" there' });
    expect((JSON.parse(masked) as { lesson: string }).lesson).toBe('use postgres://app:•••@db/x with token=•••"123 and "quotes\\" here');
  });

  it('masks every string of a result deeply, copying only what changed, and never a console confirmation token', () => {
    const untouched = { n: 1, tags: ['a'] };
    const value = { items: [{ lesson: 'password=hunter2', meta: untouched }], token: 'skc1.eyJ.sk-abcdefghijklmnopqrstuvwxyz0123' };
    const masked = maskDeep(value);
    expect(masked.items[0]?.lesson).toBe('password=•••');
    expect(masked.items[0]?.meta).toBe(untouched);
    expect(masked.token).toBe(value.token);
    expect(value.items[0]?.lesson).toBe('password=hunter2');
  });
});

describe('search highlights over masked text', () => {
  it('moves match ranges with the masked lesson', () => {
    const lesson = 'use postgres://app:longsecret@db/x then rotate the database password';
    const start = lesson.indexOf('rotate');
    const inside = lesson.indexOf('longsecret');
    const item = { rid: 1, lesson, match: { lesson: [[start, start + 6], [inside, inside + 4]], fields: ['lesson'] } };
    const masked = maskDeep(item);
    expect(masked.lesson).toBe('use postgres://app:•••@db/x then rotate the database password');
    // A match inside the secret (search still sees the stored text) highlights the mask itself.
    const words = (masked.match.lesson as [number, number][]).map(([s, e]) => masked.lesson.slice(s, e));
    expect(words).toEqual(['rotate', '•••']);
  });
});
