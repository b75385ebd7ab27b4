import { describe, expect, it } from 'vitest';
import type { Obligation } from '../../../../shared/contract/receipts';
import { neverAnswered } from './never-answered';

const obligation = (entryId: string, status: Obligation['status'], displayedAt: string, extra: Partial<Obligation> = {}): Obligation => ({
  traceId: `t-${displayedAt}`, entryId, phase: 'Phase 1', sessionId: 's', taskId: null, agent: 'architect', mode: 'auto_injection', priority: 'critical', displayedAt, status,
  ageMs: null, releases: [], answer: null, answeredAfterRelease: false, denials: null, stalenessDue: false, stalenessDueAt: null, closedUnresolved: null,
  derived: true, enforcement: null, gateWarnings: 0, ...extra,
});

describe('neverAnswered', () => {
  it('lists directives none of whose displays was answered (a release is no answer), most displays first', () => {
    const list = neverAnswered([
      obligation('a', 'open', '2026-07-01T10:00:00.000Z', { enforcement: 'enforce', gateWarnings: 4 }),
      obligation('a', 'released', '2026-07-01T09:00:00.000Z'),
      obligation('a', 'open', '2026-07-01T11:00:00.000Z'),
      obligation('b', 'open', '2026-07-01T10:00:00.000Z'),
      obligation('b', 'answered', '2026-07-01T12:00:00.000Z'),
      obligation('c', 'open', '2026-07-02T10:00:00.000Z'),
    ]);
    expect(list.map((n) => [n.entryId, n.displays, n.enforcement, n.gateWarnings, n.firstShown, n.lastShown])).toEqual([
      ['a', 3, 'enforce', 4, '2026-07-01T09:00:00.000Z', '2026-07-01T11:00:00.000Z'],
      ['c', 1, null, 0, '2026-07-02T10:00:00.000Z', '2026-07-02T10:00:00.000Z'],
    ]);
  });
});
