import { describe, expect, it } from 'vitest';
import type { DirectiveRow } from '../../../shared/contract/knowledge';
import { entryId } from '../rules/entry-fields';
import { ChunkedList } from './chunked-list';
import { buildViews, copiesOf, growViews, type ModelViews } from './model-views';
import type { KnowledgeInputs, SourceEntry } from './model-types';

/**
 * Views grown by changes equal views built from scratch on the changed entries, on lists long
 * enough to span many chunks (so insertions split chunks and removals empty them), with few
 * changes (inserted one at a time) and many (merged in one pass).
 */

const FILES = [
  { fileId: 1, tier: 'swarm', collection: 'active', storeKey: 'knowledge', file: '/p/.swarm/knowledge.jsonl' },
  { fileId: 2, tier: 'hive', collection: 'active', storeKey: 'hive', file: '/hive/shared-learnings.jsonl' },
  { fileId: 3, tier: 'swarm', collection: 'rejected', storeKey: 'knowledge-rejected', file: '/p/.swarm/knowledge-rejected.jsonl' },
  { fileId: 4, tier: 'swarm', collection: 'unactionable', storeKey: 'knowledge-unactionable', file: '/p/.swarm/knowledge-unactionable.jsonl' },
] as const;

let rid = 0;
/** An entry of file `f` at `line`: every fifth a directive, every seventh archived, every 50th an id some other entry has too. */
function entry(f: number, line: number): SourceEntry {
  const k = ++rid;
  const where = FILES[f]!;
  const value: Record<string, unknown> = {
    id: k % 50 === 0 ? `shared-${k % 200}` : `id-${k}`,
    tier: where.tier,
    lesson: `Lesson ${k} about the payments gateway.`,
    status: k % 7 === 0 ? 'archived' : 'established',
    ...(k % 5 === 0 ? { required_actions: ['re-run the contract tests'], directive_priority: 'high' } : {}),
  };
  return { rid: k, value, text: JSON.stringify(value), tier: where.tier, collection: where.collection, storeKey: where.storeKey, file: where.file, fileId: where.fileId, line, notes: [] };
}

const compare = (a: SourceEntry, b: SourceEntry) => (a.fileId ?? 0) - (b.fileId ?? 0) || a.line - b.line;
const rowOf = (source: SourceEntry) => ({ id: entryId(source.value), line: source.line }) as unknown as DirectiveRow;
const inputsOf = (entries: readonly SourceEntry[]): KnowledgeInputs => ({ entries: ChunkedList.from(entries), knowledgeEvents: [], applicationLog: [], baseline: null, retractions: [], skills: [] });

function built(inputs: KnowledgeInputs): ModelViews {
  const build = buildViews(inputs, rowOf, {});
  let step = build.next();
  while (!step.done) step = build.next();
  return step.value;
}

/** Every view as plain arrays (the chunks a list is cut in are not part of what it says). */
function plain(views: ModelViews, ids: readonly string[]) {
  const rids = (list: Iterable<SourceEntry>) => [...list].map((e) => e.rid);
  return {
    lessons: rids(views.lessons),
    copies: ids.map((id) => copiesOf(views.byId.get(id)).map((e) => e.rid)),
    directiveSources: rids(views.directiveSources),
    directives: views.directives.toArray(),
    groups: views.groups.map((g) => [g.group, rids(g.entries)]),
    sourceEntries: [rids(views.sourceEntries.swarm), rids(views.sourceEntries.hive)],
    sources: [views.sources.swarm.toArray(), views.sources.hive.toArray()],
    triage: [rids(views.triage.rejected), rids(views.triage.unactionable)],
  };
}

describe('growViews', () => {
  it('equals a full build after appends, removals and both, few and many, over lists of thousands', () => {
    const nextLine = [0, 0, 0, 0];
    const make = (f: number) => entry(f, ++nextLine[f]!);
    let entries: SourceEntry[] = [];
    for (let k = 0; k < 4000; k++) entries.push(make(k % 10 < 6 ? 0 : k % 10 < 8 ? 1 : k % 10 === 8 ? 2 : 3));
    entries.sort(compare);
    let inputs = inputsOf(entries);
    let views = built(inputs);
    // Each step: lines appended to some files, lines gone from anywhere (a rewrite's old lines).
    const steps: { append: number[]; remove: number }[] = [
      { append: [0], remove: 0 },
      { append: [0, 0, 1, 2, 3], remove: 0 },
      { append: Array.from({ length: 700 }, (_, i) => i % 2), remove: 0 },
      { append: [], remove: 3 },
      { append: [1, 0], remove: 40 },
      { append: [], remove: 900 },
      { append: Array.from({ length: 100 }, (_, i) => i % 4), remove: 100 },
      ...Array.from({ length: 30 }, (_, i) => ({ append: [i % 4], remove: i % 3 })),
    ];
    let seed = 11;
    const pick = (n: number) => (seed = (seed * 16807) % 2147483647) % n;
    for (const { append, remove } of steps) {
      const gone = new Set<SourceEntry>();
      while (gone.size < remove) gone.add(entries[pick(entries.length)]!);
      const added = append.map(make);
      const next = [...entries.filter((e) => !gone.has(e)), ...added].sort(compare);
      const nextInputs = inputsOf(next);
      const grown = growViews(views, inputs, nextInputs, { added, removed: [...gone], compare }, rowOf, true);
      const ids = [...new Set([...entries, ...added].map((e) => entryId(e.value)))];
      expect(plain(grown.views, ids)).toEqual(plain(built(nextInputs), ids));
      // The rows that went with the gone directive lessons, and only those.
      const goneDirectives = [...gone].filter((e) => e.collection === 'active' && e.value.required_actions !== undefined);
      expect(grown.removedRows.map((row) => (row as unknown as { line: number }).line).sort()).toEqual(goneDirectives.map((e) => e.line).sort());
      [entries, inputs, views] = [next, nextInputs, grown.views];
    }
  });
});
