import { describe, expect, it } from 'vitest';
import { historyStartText, timelineText, type TimelineVersion } from './timeline-text';

const version = (over: Partial<TimelineVersion>): TimelineVersion => ({
  tier: 'swarm',
  kind: 'active',
  storeKey: 'knowledge',
  file: '.swarm/knowledge.jsonl',
  sha256: 'a'.repeat(64),
  from: '2026-12-01T09:00:00.000Z',
  to: null,
  origin: 'live',
  unobserved: null,
  fields: [],
  end: null,
  record: {},
  ...over,
});

const BASELINE = version({ origin: 'baseline', to: '2026-12-01T10:00:00.000Z', end: { code: 'changed', text: 'replaced by a newer version', inference: false } });
const CURATOR = version({
  sha256: 'b'.repeat(64),
  from: '2026-12-01T10:00:00.000Z',
  to: '2026-12-01T14:40:00.000Z',
  origin: 'catch-up',
  unobserved: { from: '2026-12-01T09:12:00.000Z', to: '2026-12-01T10:00:00.000Z', text: 'changed between 2026-12-01 09:12 and 2026-12-01 10:00 (not observed in between)' },
  fields: [
    { field: 'confidence', before: '0.9', after: '0.42' },
    { field: 'triggers', before: null, after: '["deploy"]' },
  ],
  end: { code: 'cap', text: 'no longer in the store (likely evicted by the 100-entry cap)', inference: true },
});
const QUARANTINED = version({ sha256: 'b'.repeat(64), kind: 'quarantined', storeKey: 'knowledge-quarantined', file: '.swarm/knowledge-quarantined.jsonl', from: '2026-12-01T14:40:00.000Z' });

describe("an entry's history in words", () => {
  const lines = timelineText([BASELINE, CURATOR, QUARANTINED], { at: '2026-12-01T12:00:00.000Z', historyBegan: '2026-12-01T08:59:59.000Z' });

  it('lists every version newest first, with where it lived', () => {
    expect(lines.map((l) => l.place)).toEqual(['swarm · quarantine file · knowledge-quarantined.jsonl', 'swarm · active store · knowledge.jsonl', 'swarm · active store · knowledge.jsonl']);
    expect(lines[0]!.file).toBe('.swarm/knowledge-quarantined.jsonl');
  });

  it('says when each held, and the stretch nobody watched when it was found on opening', () => {
    expect(lines[0]!.time).toBe('since 2026-12-01 14:40:00 UTC');
    expect(lines[1]!.time).toBe('changed between 2026-12-01 09:12 UTC and 2026-12-01 10:00 UTC (not observed in between)');
    expect(lines[2]!.time).toBe('2026-12-01 09:00:00 UTC → 2026-12-01 10:00:00 UTC');
  });

  it('says what changed: a move between files, each field as before → after', () => {
    expect(lines[0]!.changes).toEqual(['moved from the active store (.swarm/knowledge.jsonl) to the quarantine file']);
    expect(lines[1]!.changes).toEqual(['confidence 0.90 → 0.42', 'triggers (absent) → ["deploy"]']);
    expect(lines[2]!.changes).toEqual(['the first version history holds']);
  });

  it('gives the first version’s lesson and a later one’s only where it changed', () => {
    const lesson = (text: string) => ({ lesson: text });
    const versions = [version({ record: lesson('Pin the digest') }), version({ record: lesson('Pin the digest'), sha256: 'c'.repeat(64) }), version({ record: lesson('Pin the image digest'), sha256: 'd'.repeat(64) }), version({ record: null, sha256: 'e'.repeat(64) })];
    expect(timelineText(versions).map((l) => l.lesson)).toEqual(['(no lesson text in this line)', 'Pin the image digest', null, 'Pin the digest']);
  });

  it('says how history learned of each and why each ended, inferences marked as such', () => {
    expect(lines.map((l) => l.origin)).toEqual(['seen live, as the plugin wrote it', 'found on opening: written while no console or recorder was watching', 'baseline: already in the store when history began']);
    expect(lines[0]!.end).toBe('still the version in the store');
    expect(lines[1]!.end).toBe('ended: no longer in the store (likely evicted by the 100-entry cap) (an inference: the stores do not say it)');
    expect(lines[2]!.end).toBe('ended: replaced by a newer version');
  });

  it('marks the version in place at the as-of moment, and none without one', () => {
    expect(lines.map((l) => l.current)).toEqual([false, true, false]);
    expect(timelineText([BASELINE, CURATOR]).some((l) => l.current)).toBe(false);
    // The baseline holds from when history began, though history wrote it a moment later.
    const atStart = timelineText([BASELINE, CURATOR], { at: '2026-12-01T08:59:59.500Z', historyBegan: '2026-12-01T08:59:59.000Z' });
    expect(atStart.map((l) => l.current)).toEqual([false, true]);
    expect(timelineText([BASELINE, CURATOR], { at: '2026-12-01T08:59:58.000Z', historyBegan: '2026-12-01T08:59:59.000Z' }).some((l) => l.current)).toBe(false);
  });

  it('says where history of the entry starts', () => {
    expect(historyStartText([BASELINE, CURATOR])).toBe('History began 2026-12-01 09:00:00 UTC: earlier versions of this entry are not known.');
    expect(historyStartText([QUARANTINED])).toBe('First seen 2026-12-01 14:40:00 UTC, as it was written.');
    expect(historyStartText([])).toBeNull();
  });
});
