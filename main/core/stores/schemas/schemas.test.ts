import { describe, expect, it } from 'vitest';
import { hiveEntry, knowledgeEvent, quarantinedEntry, rejectedLesson, swarmEntryV1, swarmEntryV2, unactionableEntry, gateWarnEvent } from '../../../../testing/stores/sample-records';
import { checkHiveEntry, checkQuarantinedEntry, checkRejectedLesson, checkSwarmEntry, checkUnactionableEntry, normaliseEntry } from './knowledge';
import { checkKnowledgeEvent, checkSwarmEvent, checkApplicationLog } from './events';
import { checkReceiptJournal } from './receipts';
import { checkQuota, checkCounterBaseline } from './misc';

describe('knowledge entry normalisation (v1 → v2)', () => {
  it('shows a legacy applied_count as shown_count and keeps the frozen counters visible', () => {
    const raw = swarmEntryV1();
    const { value, notes } = normaliseEntry(raw);
    expect(value.retrieval_outcomes).toEqual({
      applied_count: 4,
      succeeded_after_count: 1,
      failed_after_count: 0,
      shown_count: 4,
      acknowledged_count: 0,
      applied_explicit_count: 0,
      ignored_count: 0,
      violated_count: 0,
      contradicted_count: 0,
      succeeded_after_shown_count: 1,
      failed_after_shown_count: 0,
    });
    expect(value.encounter_score).toBe(0);
    expect(notes.map((n) => n.note)).toEqual(
      expect.arrayContaining([
        'legacy applied_count 4 shown as shown_count',
        'legacy succeeded_after_count 1 shown as succeeded_after_shown_count',
        expect.stringContaining('frozen legacy counters kept as written, no longer updated by the plugin: applied_count=4, succeeded_after_count=1'),
      ]),
    );
    // The raw record is never modified.
    expect(raw.retrieval_outcomes).toEqual({ applied_count: 4, succeeded_after_count: 1, failed_after_count: 0 });
  });

  it('keeps v2 counters as written and adds no notes', () => {
    const { value, notes } = normaliseEntry(swarmEntryV2());
    expect((value.retrieval_outcomes as Record<string, number>).shown_count).toBe(12);
    expect(notes).toEqual([]);
  });

  it('replaces a non-object retrieval_outcomes, drops non-array directive lists, coerces tags', () => {
    const { value, notes } = normaliseEntry(swarmEntryV1({ retrieval_outcomes: null, triggers: 'not a list', tags: 'x', encounter_score: 'NaN' }));
    expect((value.retrieval_outcomes as Record<string, number>).shown_count).toBe(0);
    expect(value).not.toHaveProperty('triggers');
    expect(value.tags).toEqual([]);
    expect(value.encounter_score).toBe(0);
    expect(notes.map((n) => n.field)).toEqual(['retrieval_outcomes', 'encounter_score', 'triggers', 'tags']);
  });

  it('leaves objects without retrieval_outcomes untouched', () => {
    const raw = rejectedLesson();
    expect(normaliseEntry(raw)).toEqual({ value: raw, notes: [] });
  });
});

describe('record checks', () => {
  it('accepts every sample record as written by the plugin', () => {
    expect(checkSwarmEntry(swarmEntryV1()).problems).toEqual([]);
    expect(checkSwarmEntry(swarmEntryV2()).problems).toEqual([]);
    expect(checkHiveEntry(hiveEntry()).problems).toEqual([]);
    expect(checkRejectedLesson(rejectedLesson()).problems).toEqual([]);
    expect(checkQuarantinedEntry(quarantinedEntry()).problems).toEqual([]);
    expect(checkUnactionableEntry(unactionableEntry()).problems).toEqual([]);
    for (const type of ['retrieved', 'applied', 'ignored', 'violated', 'n_a', 'override']) {
      expect(checkKnowledgeEvent(knowledgeEvent(type)).problems).toEqual([]);
    }
    expect(checkSwarmEvent(gateWarnEvent()).problems).toEqual([]);
  });

  it('names the field path and the types of a wrong-typed field', () => {
    const { problems } = checkSwarmEntry(swarmEntryV1({ confidence: 'high' }));
    expect(problems).toEqual([{ kind: 'schema', reason: 'confidence: expected number, got string' }]);
  });

  it('reports missing fields, out-of-range numbers and nested paths', () => {
    const entry = swarmEntryV1({ confidence: 1.4, confirmed_by: [{ confirmed_at: 'yesterday' }] });
    delete entry.lesson;
    expect(checkSwarmEntry(entry).problems.map((p) => p.reason)).toEqual([
      'lesson: missing (expected string)',
      'confidence: must be ≤ 1, got 1.4',
      'confirmed_by.0.confirmed_at: expected an ISO-8601 timestamp, got "yesterday"',
    ]);
  });

  it('reports an unknown status as unknown_enum and keeps the record', () => {
    const raw = swarmEntryV1({ status: 'foo' });
    const result = checkSwarmEntry(raw);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]?.kind).toBe('unknown_enum');
    expect(result.problems[0]?.reason).toMatch(/^unknown status "foo" \(known: "candidate"\|/);
    expect(result.value.status).toBe('foo');
  });

  it('keeps unknown extra fields', () => {
    const result = checkSwarmEntry(swarmEntryV2({ future_field: { nested: true } }));
    expect(result.problems).toEqual([]);
    expect(result.value.future_field).toEqual({ nested: true });
  });

  it('flags an unknown knowledge event type but not an unknown events.jsonl kind', () => {
    expect(checkKnowledgeEvent(knowledgeEvent('teleported')).problems[0]?.reason).toMatch(/^unknown type "teleported"/);
    expect(checkSwarmEvent({ event: 'phase_started', timestamp: '2026-07-01T10:00:00.000Z' }).problems).toEqual([]);
    expect(checkSwarmEvent({ timestamp: '2026-07-01T10:00:00.000Z' }).problems[0]?.reason).toBe('event or type: missing (expected string)');
  });

  it('checks the application log result enum (no n_a)', () => {
    const result = checkApplicationLog({ timestamp: '2026-07-01T10:06:00.000Z', knowledgeId: 'x', result: 'n_a' });
    expect(result.problems[0]?.kind).toBe('unknown_enum');
  });

  it('checks receipt journal records by type and flags an unsupported schema', () => {
    const membership = {
      agent: 'architect',
      entries: [{ entry_id: 'e', entry_sha256: 'a'.repeat(64), obligation: 'ack_required', priority: 'critical', rank: 1, tier: 'swarm' }],
      gen: 1,
      hash: 'b'.repeat(64),
      phase: 'Phase 4',
      prev: '0'.repeat(64),
      project_id: 'a1b2c3d4e5f6',
      retrieval_mode: 'auto_injection',
      schema: 'swarm.knowledge-receipt/2',
      seq: 1,
      session_id: 's',
      task_id: '4.2',
      trace_id: 't',
      ts: '2026-07-01T10:00:00.000Z',
      type: 'membership',
    };
    expect(checkReceiptJournal(membership).problems).toEqual([]);
    expect(checkReceiptJournal({ ...membership, schema: 'swarm.knowledge-receipt/9' }).problems[0]?.reason).toMatch(/^unknown schema/);
    expect(checkReceiptJournal({ ...membership, seq: 'one' }).problems[0]?.reason).toBe('seq: expected number, got string');
  });

  it('notes that an invalid quota file is ignored by the plugin', () => {
    const result = checkQuota({ date: '2026-7-1', calls_used: 3, max_calls: 10, window: 'utc' });
    expect(result.problems[0]?.reason).toContain('date:');
    expect(result.notes[0]?.note).toContain('ignores this quota file');
  });

  it('checks every rollup in the counter baseline', () => {
    expect(checkCounterBaseline({ abc: { shown_count: 1 } }).problems[0]?.reason).toBe('abc.acknowledged_count: missing (expected number)');
  });
});
