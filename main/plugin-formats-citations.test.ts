import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Comments cite the plugin's formats as `docs/plugin-formats.md#heading` (and further `#heading`s
// in the same parenthesis or line). A reader must be able to follow every one, so each cited
// heading has to exist in the doc, and no citation may point into a document outside the repo.

const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const DOC = 'docs/plugin-formats.md';
const SOURCE_DIRS = ['main', 'shared', 'renderer', 'preload', 'testing', 'bench', 'e2e'];

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(full);
    return /\.(ts|tsx|mjs|cjs|js)$/.test(entry.name) ? [full] : [];
  });
}

/** GitHub's heading anchors: lower-case, punctuation dropped, spaces to hyphens. */
function headingAnchors(markdown: string): string[] {
  const withoutFences = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return [...withoutFences.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) =>
    m[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s-]/gu, '')
      .replace(/\s/g, '-'),
  );
}

/** Every `#anchor` cited after `docs/plugin-formats.md` on a line, up to the closing parenthesis. */
function citedAnchors(line: string): string[] {
  const at = line.indexOf(DOC);
  if (at < 0) return [];
  const rest = line.slice(at + DOC.length);
  const end = rest.indexOf(')');
  const span = end < 0 ? rest : rest.slice(0, end);
  return [...span.matchAll(/#([a-z0-9][a-z0-9-]*)/g)].map((m) => m[1]!);
}

const doc = fs.readFileSync(path.join(repoRoot, DOC), 'utf8');
const self = path.join(repoRoot, 'main', 'plugin-formats-citations.test.ts');
// This file names the citation forms it looks for, so it is not scanned itself.
const files = SOURCE_DIRS.flatMap((dir) => sourceFiles(path.join(repoRoot, dir))).filter((file) => file !== self);
const citations = files.flatMap((file) =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line, i) => citedAnchors(line).map((anchor) => ({ where: `${path.relative(repoRoot, file)}:${i + 1}`, anchor }))),
);

describe(`citations of ${DOC}`, () => {
  it('the doc has unique heading anchors', () => {
    const anchors = headingAnchors(doc);
    expect(anchors.filter((a, i) => anchors.indexOf(a) !== i)).toEqual([]);
  });

  it('every cited heading exists in the doc', () => {
    const anchors = new Set(headingAnchors(doc));
    expect(citations.length).toBeGreaterThan(30);
    expect(citations.filter((c) => !anchors.has(c.anchor)).map((c) => `${c.where} #${c.anchor}`)).toEqual([]);
  });

  it('every in-doc link points to a heading of the doc', () => {
    const anchors = new Set(headingAnchors(doc));
    const links = [...doc.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(10);
    expect(links.filter((a) => !anchors.has(a))).toEqual([]);
  });

  it('no code cites the team reference outside the repo by section number', () => {
    const stale = /\brule 5\.6|\bsections? \d+\.\d|§|store reference|(?:bridge|plugin) reference|reference (?:section )?\d/;
    const offenders = files.flatMap((file) =>
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (stale.test(line) ? [`${path.relative(repoRoot, file)}:${i + 1}`] : [])),
    );
    expect(offenders).toEqual([]);
  });
});
