import { describe, expect, it } from 'vitest';
import { changeWhenText, countsText, filterRows, historyBeganText, rowDetailLines, type ChangeRow } from './change-text';

const place = { tier: 'swarm' as const, kind: 'active' as const, storeKey: 'knowledge', file: '/p/.swarm/knowledge.jsonl' };
const row = (over: Partial<ChangeRow>): ChangeRow => ({ change: 'changed', id: 'e1', at: '2026-12-01T14:40:00.000Z', place, lesson: 'Pin the digest', fields: [], reason: null, unobserved: null, ...over });

describe('row text', () => {
  it('gives the reason of a removal, marked where it is the console’s inference', () => {
    expect(rowDetailLines(row({ change: 'removed', reason: { code: 'removed', text: 'removed (the stores do not say why)', inference: false } }))).toEqual(['removed (the stores do not say why)']);
  });

  it('gives the diff of a change and nothing extra for an addition', () => {
    expect(rowDetailLines(row({ fields: [{ field: 'confidence', before: '0.9', after: '0.42' }] }))).toEqual(['confidence 0.90 → 0.42']);
    expect(rowDetailLines(row({ fields: [] }))[0]).toMatch(/no top-level field differs/);
    expect(rowDetailLines(row({ change: 'added' }))).toEqual([]);
  });

  it('says when, or the stretch nobody watched', () => {
    expect(changeWhenText(row({}))).toBe('2026-12-01 14:40 UTC');
    const unobserved = { from: '2026-12-01T09:12:00Z', to: '2026-12-01T14:40:00Z', text: 'changed between 2026-12-01 09:12 and 2026-12-01 14:40 (not observed in between)' };
    expect(changeWhenText(row({ unobserved }))).toBe('changed between 2026-12-01 09:12 UTC and 2026-12-01 14:40 UTC (not observed in between)');
    expect(changeWhenText(row({ unobserved: { ...unobserved, text: 'appeared between 2026-12-01 09:12 and 2026-12-01 14:40 (not observed in between)' } }))).toMatch(/^appeared between 2026-12-01 09:12 UTC and/);
  });

  it('explains each count', () => {
    const texts = countsText({ added: 1, removed: 0, changed: 41 }).map((c) => c.text);
    expect(texts[0]).toMatch(/^1 added — entries that appeared/);
    expect(texts[1]).toMatch(/^0 removed — entries that left/);
    expect(texts[2]).toMatch(/^41 changed — the same entry/);
  });

  it('says plainly where history begins', () => {
    expect(historyBeganText(null, '2026-12-01T00:00:00Z')).toMatch(/recorded nothing yet/);
    expect(historyBeganText('2026-12-01T09:00:00Z', '2026-12-01T10:00:00Z')).toBe('History began 2026-12-01 09:00 UTC; earlier changes are unknown.');
    expect(historyBeganText('2026-12-01T09:00:00Z', '2026-11-01T10:00:00Z')).toMatch(/range starts before anything was recorded\.$/);
  });

  it('filters by tier and kind of change', () => {
    const rows = [row({ id: 'a' }), row({ id: 'b', change: 'removed' }), row({ id: 'c', place: { ...place, tier: 'hive' } })];
    expect(filterRows(rows, [], []).map((r) => r.id)).toEqual(['a', 'b', 'c']);
    expect(filterRows(rows, ['hive'], []).map((r) => r.id)).toEqual(['c']);
    expect(filterRows(rows, ['swarm'], ['removed']).map((r) => r.id)).toEqual(['b']);
  });
});
