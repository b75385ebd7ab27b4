import { describe, expect, it } from 'vitest';
import { DirectivesQuery } from '../../../shared/contract/knowledge';
import { listDirectives } from './directive-list';
import { KnowledgeModel } from './knowledge-model';
import type { SourceEntry } from './model-types';
import { DEFAULT_THRESHOLDS } from '../rules/thresholds';

/**
 * A model grown by appended or rewritten lines takes the previous model's Directives memos over
 * stale, and brings each up to date only when asked: what it answers then equals a model built
 * from scratch, however many changes a memo waited for.
 */

const NOW = Date.parse('2026-07-10T00:00:00.000Z');
const SORTS = ['priority', 'expiry', 'violations', 'signal', 'updated', 'shown'] as const;
const STATUSES = ['established', 'candidate', 'promoted', 'archived'] as const;

let line = 0;
function directive(k: number, over: Record<string, unknown> = {}): SourceEntry {
  const value = {
    id: `dddd0000-0000-4000-8000-${String(k).padStart(12, '0')}`,
    tier: 'swarm',
    lesson: `Directive ${k}: re-run the contract tests after regenerating client ${k % 13}.`,
    status: STATUSES[k % 4],
    confidence: 0.8,
    category: 'testing',
    directive_priority: (['critical', 'high', 'medium', 'low'] as const)[k % 4],
    phases_alive: k % 9,
    max_phases: 10,
    updated_at: `2026-06-${String(1 + (k % 28)).padStart(2, '0')}T00:00:00.000Z`,
    confirmed_by: [{ phase_number: 1, confirmed_at: '2026-06-01T00:00:00.000Z', project_name: 'p' }],
    retrieval_outcomes: { shown_count: k % 5, applied_count: k % 3 },
    ...over,
  };
  line++;
  return { rid: line, value, text: JSON.stringify(value), tier: 'swarm', collection: 'active', storeKey: 'knowledge', file: '/p/.swarm/knowledge.jsonl', fileId: 1, line, notes: [] };
}

const compare = (a: SourceEntry, b: SourceEntry) => a.line - b.line;
const inputs = (entries: readonly SourceEntry[]) => ({ entries, knowledgeEvents: [], applicationLog: [], baseline: null, retractions: [], skills: [] });
const fresh = (entries: readonly SourceEntry[]) => new KnowledgeModel(inputs(entries), DEFAULT_THRESHOLDS, NOW).prepareNow();

/** The model of `entries` grown from `previous` (its counters shared: a change of the entries alone). */
function grown(previous: KnowledgeModel, entries: readonly SourceEntry[], added: readonly SourceEntry[], removed: readonly SourceEntry[] = []): KnowledgeModel {
  const model = new KnowledgeModel(inputs(entries), DEFAULT_THRESHOLDS, NOW, previous.counters, previous.derived);
  model.adopt(previous, { from: previous.inputs.entries, added, removed, dropped: removed.length, compare });
  model.prepareNow();
  expect(model.viewsMadeBy).toBe('grown');
  return model;
}

const page = (model: KnowledgeModel, includeInactive: boolean, sort: (typeof SORTS)[number]) => listDirectives(model, DirectivesQuery.parse({ sort, includeInactive, limit: 500 }));
const everyPage = (model: KnowledgeModel) => SORTS.flatMap((sort) => [false, true].map((includeInactive) => page(model, includeInactive, sort)));

describe('stale Directives memos', () => {
  it('are brought up to date when asked, equal to a fresh build after appends and a rewrite', () => {
    const first = Array.from({ length: 120 }, (_, k) => directive(k));
    const a = fresh(first);
    // Every scope and sort order: the fourteen memos a saved model holds.
    const answers = everyPage(a);
    expect(answers[0]!.rows.length).toBeGreaterThan(50);

    // One line appended: nothing is brought up to date until asked, then only what is asked.
    const one = directive(1_001, { directive_priority: 'critical', phases_alive: 9 });
    const second = [...first, one];
    const b = grown(a, second, [one]);
    expect(b.memosResolved).toBe(0);
    expect(page(b, false, 'priority')).toEqual(page(fresh(second), false, 'priority'));
    expect(b.memosResolved).toBe(2);

    // Two more (one archived) before the others are asked for: twelve memos wait for two changes.
    const more = [directive(1_002, { directive_priority: 'low' }), directive(1_003, { status: 'archived' })];
    const third = [...second, ...more];
    const c = grown(b, third, more);
    expect(everyPage(c)).toEqual(everyPage(fresh(third)));
    expect(c.memosResolved).toBe(14);

    // A rewrite: a directive's line gone and an edited copy appended; then that copy rewritten again
    // before anything is asked (the second change takes out a row the first put in).
    const [gone] = third.splice(7, 1);
    const edited = directive(7, { directive_priority: 'critical', updated_at: '2026-07-01T00:00:00.000Z' });
    const d = grown(c, [...third, edited], [edited], [gone!]);
    const again = directive(7, { directive_priority: 'high', status: 'established' });
    const fourth = [...third, again];
    const e = grown(d, fourth, [again], [edited]);
    expect(everyPage(e)).toEqual(everyPage(fresh(fourth)));
    expect(e.memosResolved).toBe(14);
    expect(page(e, false, 'priority').rows.filter((row) => row.id === again.value.id).map((row) => row.priority)).toEqual(['high']);

    // More rows changed than a memo is patched for: it is computed again.
    const many = Array.from({ length: 300 }, (_, k) => directive(2_000 + k));
    const fifth = [...fourth, ...many];
    const f = grown(e, fifth, many);
    expect(everyPage(f)).toEqual(everyPage(fresh(fifth)));
    expect(f.memosResolved).toBe(0);
  });
});
