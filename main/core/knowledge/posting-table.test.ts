import { describe, expect, it } from 'vitest';
import { PostingTable } from './posting-table';

describe('posting table', () => {
  it('reads like a map through overlays and folds, new ids past the base included; earlier tables stay as they were', () => {
    const model = new Map<number, string>([
      [0, 'a'],
      [3, 'd'],
      [7, 'h'],
    ]);
    let table = PostingTable.of(model);
    const first = table;
    const tables: [PostingTable<string>, Map<number, string>][] = [[first, new Map(model)]];
    // Enough rounds of changes to fold the overlay into the base (past 1024 changed ids) more than once.
    for (let round = 0; round < 5; round++) {
      const changes = new Map<number, string>();
      for (let k = 0; k < 700; k++) changes.set((round * 997 + k * 13) % 5000, `v${round}-${k}`);
      table = table.with(changes);
      for (const [id, value] of changes) model.set(id, value);
      tables.push([table, new Map(model)]);
    }
    for (const [t, expected] of tables) for (let id = 0; id < 5100; id++) expect(t.get(id)).toBe(expected.get(id));
    expect(first.get(13)).toBeUndefined();
  });
});
