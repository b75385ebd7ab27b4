import { describe, expect, it } from 'vitest';
import { IndexedEntry, placeOf } from './indexed-entry';
import type { SourceEntry } from './model-types';

describe('entries read from the index', () => {
  it('read their file names from one place per file, and a file renamed or moved under its id gets a new place', () => {
    const place = placeOf(7, 'swarm', 'active', 'knowledge', '/p/.swarm/knowledge.jsonl');
    expect(placeOf(7, 'swarm', 'active', 'knowledge', `/p/.swarm/${'knowledge.jsonl'}`)).toBe(place);
    const entry = new IndexedEntry(3, { id: 'a' }, place, 12, []);
    expect([entry.rid, entry.tier, entry.collection, entry.storeKey, entry.file, entry.fileId, entry.line, (entry as SourceEntry).text]).toEqual([3, 'swarm', 'active', 'knowledge', '/p/.swarm/knowledge.jsonl', 7, 12, undefined]);
    for (const [tier, collection, storeKey, file] of [
      ['hive', 'active', 'knowledge', '/p/.swarm/knowledge.jsonl'],
      ['swarm', 'rejected', 'knowledge', '/p/.swarm/knowledge.jsonl'],
      ['swarm', 'active', 'knowledge-rejected', '/p/.swarm/knowledge.jsonl'],
      ['swarm', 'active', 'knowledge', '/q/.swarm/knowledge.jsonl'],
    ] as const) {
      const before = placeOf(7, 'swarm', 'active', 'knowledge', '/p/.swarm/knowledge.jsonl');
      const moved = placeOf(7, tier, collection, storeKey, file);
      expect(moved).not.toBe(before);
      expect(new IndexedEntry(4, {}, moved, 1, []).file).toBe(file);
      expect([moved.tier, moved.collection, moved.storeKey]).toEqual([tier, collection, storeKey]);
    }
    // Entries made earlier keep their own place.
    expect(entry.tier).toBe('swarm');
  });
});
