import { describe, expect, it } from 'vitest';
import { fieldDiffLines, placeText, reasonText } from './history-words';

const place = { tier: 'swarm' as const, kind: 'active' as const, storeKey: 'knowledge', file: '/p/.swarm/knowledge.jsonl' };

describe('field diffs', () => {
  it('shows confidence with the plugin’s two decimals and plain fields as stored', () => {
    expect(fieldDiffLines({ field: 'confidence', before: '0.9', after: '0.42' })).toEqual(['confidence 0.90 → 0.42']);
    expect(fieldDiffLines({ field: 'status', before: 'established', after: 'archived' })).toEqual(['status established → archived']);
    expect(fieldDiffLines({ field: 'promoted_at', before: null, after: '2026-12-01' })).toEqual(['promoted_at (absent) → 2026-12-01']);
  });

  it('names the counters that moved inside an object field', () => {
    const before = JSON.stringify({ applied_count: 3, succeeded_after_count: 1, failed_after_count: 0 });
    const after = JSON.stringify({ applied_count: 4, succeeded_after_count: 1, failed_after_count: 2 });
    expect(fieldDiffLines({ field: 'retrieval_outcomes', before, after })).toEqual(['retrieval_outcomes.applied_count 3 → 4', 'retrieval_outcomes.failed_after_count 0 → 2']);
  });

  it('lists what a list gained and lost', () => {
    expect(fieldDiffLines({ field: 'triggers', before: '["deploy","rollback"]', after: '["deploy","migrate"]' })).toEqual(['triggers + migrate, − rollback']);
    expect(fieldDiffLines({ field: 'tags', before: '["a","b"]', after: '["b","a"]' })).toEqual(['tags reordered']);
  });
});

describe('where and why', () => {
  it('gives the reason an entry left, marked where it is the console’s inference', () => {
    expect(reasonText({ code: 'cap', text: 'no longer in the store (likely evicted by the 100-entry cap)', inference: true })).toBe(
      'no longer in the store (likely evicted by the 100-entry cap) — inferred by the console; no store records why',
    );
    expect(reasonText({ code: 'moved', text: 'moved to the quarantine file (knowledge-quarantined.jsonl)', inference: false })).toBe('moved to the quarantine file (knowledge-quarantined.jsonl)');
  });

  it('says where it lives in words', () => {
    expect(placeText(place)).toBe('swarm · active store · knowledge.jsonl');
    expect(placeText({ ...place, tier: 'hive', kind: 'quarantined', file: 'C:\\hive\\shared-learnings-quarantined.jsonl' })).toBe('hive · quarantine file · shared-learnings-quarantined.jsonl');
  });

});
