import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainBuilder } from '../../demo/receipt-chain';
import { loadReceipts } from './load-receipts';
import { funnelOf, obligationsOf, phasesOf, tracesPage, type ReceiptsModel } from './receipts-model';

/**
 * One project told as an operator would: phase 3 closed with a violation; in phase 4 the
 * architect answered one critical directive, the gate released another after five denials, a
 * delegate ignored a third, and one critical was never acknowledged. The legacy logs carry an
 * older phase 2.
 */

const T0 = Date.parse('2026-07-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();
const NOW = T0 + 120 * 60_000;
const [A, B, C, D, E, F, G, H] = ['aaaa1111', 'bbbb2222', 'cccc3333', 'dddd4444', 'eeee5555', 'ffff6666', '99997777', '88888888'].map((p) => `${p}-0000-4000-8000-000000000000`) as [
  string, string, string, string, string, string, string, string,
];

let dir: string;
let model: ReceiptsModel;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'receipts-model-'));
  const project = path.join(dir, 'billing-api');
  const swarm = path.join(project, '.swarm');
  fs.mkdirSync(swarm, { recursive: true });
  fs.mkdirSync(path.join(project, '.opencode'), { recursive: true });
  fs.writeFileSync(path.join(project, '.opencode', 'opencode-swarm.json'), JSON.stringify({ knowledge_application: { max_gate_denials: 3 } }));

  const j = new ChainBuilder({ sessionId: 'ses_p3', phase: 'Phase 3', startTs: at(-600), stepMs: 0 });
  const p3 = { session_id: 'ses_p3', phase: 'Phase 3' };
  j.membership('t0', [{ entry_id: E, priority: 'critical' }], { ...p3, ts: at(-600) });
  j.terminal('t0', E, 'violated', 'reviewer', { ...p3, ts: at(-590), reason: 'coder wrote via heredoc' });
  j.phaseClose('Phase 3', 'failure', {
    ...p3,
    ts: at(-500),
    archive_eligible_after: new Date(T0 - 500 * 60_000 + 7 * 86_400_000).toISOString(),
    unresolved: [{ trace_id: 't0', entry_id: E, reason: 'unremediated_violation' }],
  });
  const p4 = { session_id: 'ses_p4', phase: 'Phase 4' };
  j.membership('t1', [{ entry_id: A, priority: 'critical' }, { entry_id: B }], { ...p4, ts: at(0) });
  j.terminal('t1', A, 'applied', 'architect_marker', { ...p4, ts: at(5) });
  j.membership('t2', [{ entry_id: C, priority: 'critical' }, { entry_id: A, priority: 'critical' }], { ...p4, ts: at(10), agent: 'coder', retrieval_mode: 'delegate_inject' });
  j.gateRelease('denial_limit', [{ trace_id: 't2', entry_id: C }], { ...p4, ts: at(25), denial_count: 3, max_gate_denials: 3 });
  j.terminal('t2', A, 'ignored', 'delegate', { ...p4, ts: at(30), agent: 'coder', reason: 'not_relevant: no scope change' });
  j.membership('t3', [{ entry_id: D, priority: 'critical' }], { ...p4, ts: at(60), task_id: '4.3' });
  j.terminal('t3', D, 'unacknowledged', 'delegate', { ...p4, ts: at(70), reason: 'unacknowledged' });
  j.write(path.join(swarm, 'knowledge-receipts-v2.jsonl'));

  const lines = (items: object[]) => items.map((i) => JSON.stringify(i) + '\n').join('');
  const ev = (type: string, extra: object, minutes: number) => ({ schema_version: 1, type, event_id: `ev-${type}-${minutes}`, timestamp: at(minutes), ...extra });
  fs.writeFileSync(
    path.join(swarm, 'knowledge-events.jsonl'),
    lines([
      ev('retrieved', { trace_id: 'L1', session_id: 'ses_p2', phase: 'Phase 2', agent: 'architect', retrieval_mode: 'auto_injection', result_ids: [A, F], ranks: { [A]: 1, [F]: 2 } }, -900),
      ev('applied', { trace_id: 'L1', knowledge_id: A, session_id: 'ses_p2', agent: 'reviewer', source: 'reviewer', reason: 'verified' }, -890),
      ev('n_a', { trace_id: 'fresh-1', knowledge_id: F, session_id: 'ses_p2', agent: 'coder', reason: 'no streams here' }, -880),
      ev('violated', { trace_id: 'L1', knowledge_id: F, session_id: 'ses_p2', agent: 'coder', reason: 'unacknowledged' }, -879),
      ev('applied', { trace_id: 'none', knowledge_id: G, session_id: 'ses_p2', agent: 'architect', reason: 'used it' }, -870),
      ev('outcome', { knowledge_id: A, phase: 'Phase 2', outcome: 'success', evidence_summary: 'ok' }, -860),
      // The V2 journal already holds this terminal: it must not count twice.
      ev('applied', { trace_id: 't1', knowledge_id: A, session_id: 'ses_p4', agent: 'architect', reason: 'marker' }, 5),
    ]) + '{"type":"retrieved", broken\n',
  );
  fs.writeFileSync(
    path.join(swarm, 'knowledge-application.jsonl'),
    lines([
      { timestamp: at(-950), knowledgeId: H, result: 'shown', sessionId: 'ses_p1' },
      { timestamp: at(-949), knowledgeId: H, result: 'acknowledged', sessionId: 'ses_p1', reason: 'N/A here' },
      { timestamp: at(-948), knowledgeId: A, result: 'shown', sessionId: 'ses_p1' },
      { timestamp: at(-947), knowledgeId: A, result: 'applied', sessionId: 'ses_p1' },
      // The architect marker behind the V2 terminal of t1, logged again here: counted once.
      { timestamp: at(5), knowledgeId: A, result: 'applied', sessionId: 'ses_p4', phase: 'Phase 4' },
    ]),
  );
  fs.writeFileSync(
    path.join(swarm, 'unacknowledged-criticals.jsonl'),
    lines([
      // The collector also logged this miss as violated/unacknowledged in knowledge-events.
      { timestamp: at(-879), knowledge_id: F, agent: 'coder', session_id: 'ses_p2', reason: 'unacknowledged' },
      { timestamp: at(40), knowledge_id: C, agent: 'coder', session_id: 'ses_p4', task_id: '4.2', reason: 'unacknowledged' },
    ]),
  );
  fs.writeFileSync(
    path.join(swarm, 'events.jsonl'),
    lines([
      { timestamp: at(20), event: 'knowledge_application_gate_deny', sessionID: 'ses_p4', tool: 'Task', agent: 'architect', entry_ids: [C], trace_ids: ['t2'], entry_set_key: 'x', denial_count: 3, max_gate_denials: 3 },
      { timestamp: at(21), event: 'curator_skipped', entry_id: C, lesson: 'x', reason: 'y' },
    ]),
  );
  model = await loadReceipts({ projectDir: project, swarmDir: swarm, knowledgeDir: swarm }, { now: () => NOW, env: { XDG_CONFIG_HOME: path.join(dir, 'no-user-config') } });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('open obligations in phase 4', () => {
  it('answers: which critical directives were shown and never acknowledged, and did the gate release them or did the agent answer?', () => {
    const result = obligationsOf(model, { phase: 'Phase 4', status: 'all' }, NOW);
    const rows = result.obligations.map((o) => [o.traceId, o.entryId, o.status, o.answer?.outcome ?? null, o.answer?.source ?? null, o.releases.map((r) => r.kind)]);
    expect(rows).toEqual([
      ['t3', D, 'open', null, null, []],
      ['t2', C, 'released', null, null, ['denial_limit']],
      ['t2', A, 'answered', 'ignored', 'delegate', []],
      ['t1', A, 'answered', 'applied', 'architect_marker', []],
    ]);
    expect(result.counts).toEqual({ open: 1, released: 1, answered: 2, releasedThenAnswered: 0 });
  });

  it('says how long an obligation has been open and when the staleness escape hatch applies', () => {
    const open = obligationsOf(model, { phase: 'Phase 4', status: 'open' }, NOW).obligations[0];
    expect(open).toMatchObject({ entryId: D, ageMs: 60 * 60_000, stalenessDue: true, stalenessDueAt: at(70), taskId: '4.3' });
  });

  it('says when a phase closed with the directive unresolved', () => {
    const phase3 = obligationsOf(model, { phase: 'Phase 3', status: 'all' }, NOW).obligations;
    expect(phase3.map((o) => [o.entryId, o.status, o.answer?.outcome, o.closedUnresolved])).toEqual([[E, 'answered', 'violated', 'unremediated_violation']]);
    expect(obligationsOf(model, { phase: 'Phase 4', status: 'all' }, NOW).obligations.every((o) => o.closedUnresolved === null)).toBe(true);
  });

  it('reads the escape hatches from the plugin config, with defaults for the rest', () => {
    expect(model.hatches).toMatchObject({ maxGateDenials: 3, gateStalenessMs: 600_000, receiptCloseGraceDays: 7, source: 'config' });
  });

  it('keeps a release nonterminal and shows the logged denials', () => {
    const released = obligationsOf(model, { phase: 'Phase 4', status: 'released' }, NOW).obligations[0];
    expect(released).toMatchObject({ entryId: C, answer: null, denials: 3, ageMs: 15 * 60_000 });
    expect(released?.releases[0]).toMatchObject({ kind: 'denial_limit', source: 'application_gate_denial_limit_release', denialCount: 3, maxGateDenials: 3, msFromDisplay: 15 * 60_000 });
  });
});

describe('traces', () => {
  it('lists phase 4 retrievals newest first with the exact displayed set and each entry’s fate', () => {
    const page = tracesPage(model, { phase: 'Phase 4', offset: 0, limit: 50 });
    expect(page.traces.map((t) => [t.traceId, t.agent, t.mode, t.entries.map((e) => `${e.entryId.slice(0, 4)}:${e.status}`)])).toEqual([
      ['t3', 'architect', 'auto_injection', ['dddd:open']],
      ['t2', 'coder', 'delegate_inject', ['cccc:released', 'aaaa:answered']],
      ['t1', 'architect', 'auto_injection', ['aaaa:answered', 'bbbb:unanswered']],
    ]);
    const t1a = page.traces[2]?.entries[0];
    expect(t1a?.terminals).toEqual([expect.objectContaining({ outcome: 'applied', source: 'architect_marker', origin: 'v2', msFromDisplay: 5 * 60_000 })]);
  });

  it('shows audit-only events as such, never as outcomes', () => {
    const d = tracesPage(model, { entry: D.slice(0, 8), offset: 0, limit: 50 }).traces[0]?.entries[0];
    expect(d).toMatchObject({ status: 'open', terminals: [], effective: null });
    expect(d?.audit).toEqual([expect.objectContaining({ kind: 'unacknowledged', origin: 'v2' })]);
    const c = tracesPage(model, { phase: 'Phase 4', offset: 0, limit: 50 }).traces[1]?.entries[0];
    expect(c?.audit).toEqual([expect.objectContaining({ kind: 'unacknowledged', origin: 'unacknowledged-criticals', agent: 'coder' })]);
  });

  it('adds legacy retrievals and answers without repeating what the journal holds', () => {
    const legacy = tracesPage(model, { origin: 'knowledge-events', offset: 0, limit: 50 }).traces;
    expect(legacy.map((t) => [t.traceId, t.displayedSetKnown])).toEqual([
      ['L1', true],
      ['fresh-1', false],
      ['none', false],
    ]);
    const l1 = legacy[0];
    expect(l1?.entries.map((e) => [e.entryId.slice(0, 4), e.terminals.map((t) => `${t.outcome}/${t.source}`), e.audit.map((a) => a.kind)])).toEqual([
      ['aaaa', ['applied/reviewer'], []],
      ['ffff', ['violated/delegate'], []],
    ]);
    expect(legacy[2]?.entries[0]?.terminals[0]).toMatchObject({ source: 'architect', sourceInferred: true });
    const t1 = tracesPage(model, { phase: 'Phase 4', offset: 0, limit: 50 }).traces[2];
    expect(t1?.entries[0]?.terminals).toHaveLength(1);
  });

  it('filters by outcome and agent and pages', () => {
    expect(tracesPage(model, { outcome: 'released', offset: 0, limit: 50 }).traces.map((t) => t.traceId)).toEqual(['t2']);
    expect(tracesPage(model, { agent: 'coder', outcome: 'ignored', offset: 0, limit: 50 }).traces.map((t) => t.traceId)).toEqual(['t2']);
    const page = tracesPage(model, { offset: 1, limit: 2 });
    expect(page).toMatchObject({ total: 8, offset: 1 });
    expect(page.traces).toHaveLength(2);
    expect(page.facets.phases).toEqual(['Phase 2', 'Phase 3', 'Phase 4']);
  });
});

describe('funnel per directive', () => {
  const row = (id: string) => funnelOf(model, { entry: id, offset: 0, limit: 10 }).rows[0];

  it('adds V2 and legacy sources without counting an answer logged in two places twice', () => {
    // Issue 19 item 1: answered counts displays (never more than shown); the application-log marker
    // that names no display is an answer counted apart (it was answered 4 > shown 3 before).
    expect(row(A)?.total).toMatchObject({ shown: 3, answered: 3, unlinkedAnswers: 1, applied: 2, ignored: 1, succeeded: 1, released: 0, open: 0 });
    expect(row(A)?.bySource.map((s) => [s.origin, s.counts.shown, s.counts.answered, s.counts.unlinkedAnswers])).toEqual([
      ['v2', 2, 2, 0],
      ['knowledge-events', 1, 1, 0],
      ['knowledge-application', 0, 0, 1],
    ]);
  });

  it('shows the legacy N/A-as-acknowledged down-conversion as such', () => {
    // The N/A line follows no retrieval in its session: an answer without a recorded display.
    expect(row(H)?.total).toMatchObject({ shown: 1, answered: 0, unlinkedAnswers: 1, naStoredAsAcknowledged: 1, n_a: 0 });
  });

  it('counts releases, open obligations, audit-only events and phase outcomes in their own columns', () => {
    expect(row(C)?.total).toMatchObject({ shown: 1, answered: 0, released: 1, unacknowledged: 1 });
    expect(row(D)?.total).toMatchObject({ shown: 1, answered: 0, open: 1, unacknowledged: 1 });
    // The collector's missing ack: an outcome (violated, reason unacknowledged) plus the audit-only line.
    // Of its two answers, the N/A names no recorded display: counted apart from the answered display.
    expect(row(F)?.total).toMatchObject({ shown: 1, answered: 1, unlinkedAnswers: 1, violated: 1, unacknowledged: 1 });
    expect(row(E)?.total).toMatchObject({ shown: 1, violated: 1, failed: 1 });
    expect(row(A)?.priority).toBe('critical');
  });
});

describe('phase summaries', () => {
  it('gives each phase its close state and grace period', () => {
    const { phases } = phasesOf(model, NOW);
    expect(phases.map((p) => [p.phase, p.origin, p.state, p.phaseOutcome, p.graceDays])).toEqual([
      ['Phase 2', 'legacy', 'completed_legacy', 'success', null], // derived from its legacy outcome events
      ['Phase 3', 'v2', 'in_grace', 'failure', 7],
      ['Phase 4', 'v2', 'open', null, null],
    ]);
    expect(phases[2]).toMatchObject({ traces: 3, displayed: 5, ackRequired: 4, answered: 2, released: 1, open: 1, outcomes: { applied: 1, ignored: 1 } });
    expect(phasesOf(model, NOW + 8 * 86_400_000).phases[1]?.state).toBe('archive_eligible');
  });
});

describe('sources', () => {
  it('lists every receipt source, says plainly which V2 files are absent, and counts legacy defects', () => {
    const byId = Object.fromEntries(model.sources.map((s) => [s.id, s]));
    expect(byId.journal).toMatchObject({ present: true, records: 10 });
    expect(byId.archive).toMatchObject({ present: false });
    expect(byId.archive?.summary).toMatch(/^absent — nothing archived yet \(normal\)/);
    expect(byId['knowledge-events']).toMatchObject({ present: true, records: 7, defects: 1, firstDefect: { line: 8, kind: 'invalid_json' } });
    expect(byId['swarm-events']).toMatchObject({ records: 1 });
    expect(byId['knowledge-application']?.notes.join(' ')).toMatch(/stored as "acknowledged"/);
  });
});
