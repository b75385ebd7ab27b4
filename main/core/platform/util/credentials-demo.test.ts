import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listFiles, makeDemo } from '../../../../testing/demo/demo-workspace';
import { findCredentials, maskCredentials } from './credentials';

/**
 * No false positives on a realistic corpus: every lesson (and every other line) the demo
 * generator writes passes the masker untouched, and only the credentials planted here are masked.
 */
describe('credential masking over the generated demo corpus', () => {
  const demo = makeDemo();
  afterAll(() => demo.cleanup());

  const lessons = (): string[] => {
    const out: string[] = [];
    for (const file of listFiles(demo.root).filter((f) => f.endsWith('.jsonl'))) {
      for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
        if (line === '') continue;
        const record = JSON.parse(line) as { lesson?: unknown };
        if (typeof record.lesson === 'string') out.push(record.lesson);
      }
    }
    return out;
  };

  it('masks nothing in any lesson or any store file of the demo', () => {
    const all = lessons();
    expect(all.length).toBeGreaterThan(400);
    expect(all.filter((lesson) => findCredentials(lesson).length > 0)).toEqual([]);
    const texts = listFiles(demo.root).filter((f) => /\.(jsonl|json|md)$/.test(f));
    const hits = texts.flatMap((file) => findCredentials(fs.readFileSync(file, 'utf8')).map((m) => `${path.relative(demo.root, file)}: ${m.kind}`));
    expect(hits).toEqual([]);
  });

  it('masks exactly the planted credentials among the demo lessons', () => {
    const all = lessons();
    const planted = new Map([
      [17, 'The staging DSN postgres://billing:Zq9-secret@db.staging/billing leaked into a log'],
      [101, 'CI exported GITHUB_TOKEN=ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8 by mistake'],
      [250, 'The fixture used AKIAIOSFODNN7EXAMPLE as the key id'],
    ]);
    const corpus = all.map((lesson, i) => planted.get(i) ?? lesson);
    const changed = corpus.flatMap((lesson, i) => (maskCredentials(lesson) === lesson ? [] : [i]));
    expect(changed).toEqual([...planted.keys()]);
    expect(maskCredentials(corpus[17] as string)).toBe('The staging DSN postgres://billing:•••@db.staging/billing leaked into a log');
  });
});
