import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveLink } from '../core/platform/paths/link';
import { sha256Hex } from '../core/rules/canonical-json';
import { type DemoFixture, type Rec, bigramJaccard, makeDemo, readJsonl, verifyChain } from '../../testing/demo/demo-workspace';
import { DEFAULT_DEMO_NOW, DEMO_IDS as ID, DEMO_LINK_ID, DEMO_SESSIONS, DEMO_TRACES } from './generate';

const DAY = 86_400_000;
const NOW = DEFAULT_DEMO_NOW;
const ro = (e: Rec) => e.retrieval_outcomes as Record<string, number>;
const active = (e: Rec) => ['candidate', 'established', 'promoted'].includes(e.status as string);

describe('demo workspace content the views depend on', () => {
  let demo: DemoFixture;
  let swarm: Rec[];
  let journal: Rec[];
  let events: Rec[];
  let gate: Rec[];
  const byId = (id: string) => swarm.find((e) => e.id === id) as Rec;
  beforeAll(() => {
    demo = makeDemo();
    swarm = readJsonl(demo.swarm('knowledge.jsonl'));
    journal = verifyChain(demo.swarm('knowledge-receipts-v2.jsonl'));
    events = readJsonl(demo.swarm('knowledge-events.jsonl'));
    gate = readJsonl(demo.swarm('events.jsonl'));
  });
  afterAll(() => demo.cleanup());

  it('holds a few hundred swarm entries covering every status, category, scope and both line shapes', () => {
    expect(swarm.length).toBeGreaterThanOrEqual(250);
    expect(new Set(swarm.map((e) => e.status)).size).toBe(6);
    expect(new Set(swarm.map((e) => e.category)).size).toBe(10);
    expect(new Set(swarm.map((e) => e.scope))).toEqual(new Set(['global', 'stack:node']));
    const legacy = swarm.filter((e) => Object.keys(ro(e)).length === 3);
    expect(legacy.length).toBeGreaterThan(20);
    expect(byId(ID.legacyV1).retrieval_outcomes).toEqual({ applied_count: 4, succeeded_after_count: 1, failed_after_count: 0 });
    expect(swarm.filter((e) => e.category === 'todo').length).toBeGreaterThanOrEqual(5);
    expect(swarm.filter((e) => Array.isArray(e.required_actions) && (e.applies_to_agents || e.applies_to_tools)).length).toBeGreaterThan(60);
  });

  it('has critical directives close to expiring (phases_alive = max_phases − 1)', () => {
    const expiring = swarm.filter((e) => e.directive_priority === 'critical' && active(e) && typeof e.max_phases === 'number' && e.phases_alive === (e.max_phases as number) - 1);
    expect(expiring.map((e) => e.id)).toEqual(expect.arrayContaining([ID.expiringStaleness, ID.expiringBlocking, ID.expiringNodePin]));
  });

  it('has violations this week and older ones, and the escalated critical directive', () => {
    const violated = events.filter((e) => e.type === 'violated');
    const thisWeek = new Set(violated.filter((e) => Date.parse(e.timestamp as string) >= NOW - 7 * DAY).map((e) => e.knowledge_id));
    expect([...thisWeek]).toEqual(expect.arrayContaining([ID.scopeEscalated, ID.secretsRemediated, ID.migrationLockViolated]));
    expect(violated.some((e) => Date.parse(e.timestamp as string) < NOW - 7 * DAY)).toBe(true);
    const scope = byId(ID.scopeEscalated);
    expect(scope).toMatchObject({ directive_priority: 'critical', enforcement_mode: 'enforce', generated_skill_slug: 'scope-discipline' });
    expect(scope.escalation_history).toEqual([expect.objectContaining({ from: 'high', to: 'critical', reason: 'repeat_violation' })]);
    expect(events.filter((e) => e.type === 'escalation').map((e) => e.entry_id)).toContain(ID.scopeEscalated);
    expect(swarm.filter((e) => e.directive_priority === 'critical' && e.enforcement_mode === 'enforce' && Array.isArray(e.escalation_history)).length).toBeGreaterThanOrEqual(4);
  });

  it('has the Phase 4 open obligation: critical, ack_required, no terminal, no release', () => {
    const answered = new Set(journal.filter((r) => r.type === 'terminal').map((r) => `${String(r.trace_id)}:${String(r.entry_id)}`));
    const released = new Set(journal.filter((r) => r.type === 'gate_release').flatMap((r) => (r.pending as Rec[]).map((p) => `${String(p.trace_id)}:${String(p.entry_id)}`)));
    const open = journal
      .filter((r) => r.type === 'membership')
      .flatMap((r) => (r.entries as Rec[]).filter((e) => e.obligation === 'ack_required').map((e) => ({ phase: r.phase, trace: r.trace_id, entry: e.entry_id })))
      .filter((o) => !answered.has(`${String(o.trace)}:${String(o.entry)}`) && !released.has(`${String(o.trace)}:${String(o.entry)}`));
    expect(open).toEqual([
      { phase: 'Phase 4', trace: DEMO_TRACES.phase4Open, entry: ID.openObligation },
      { phase: 'Phase 5', trace: DEMO_TRACES.phase5Blocking, entry: ID.expiringBlocking },
    ]);
    const close4 = journal.find((r) => r.type === 'phase_close' && r.closed_phase === 'Phase 4') as Rec;
    expect(close4.unresolved).toEqual([
      { trace_id: DEMO_TRACES.phase4Open, entry_id: ID.openObligation, reason: 'no_verdict' },
      { trace_id: DEMO_TRACES.phase4Unacked, entry_id: ID.secretsRemediated, reason: 'unremediated_violation' },
    ]);
    expect(close4.overrides).toEqual([expect.objectContaining({ entry_id: ID.panReleased })]);
    expect(close4.grace_days).toBe(7);
  });

  it('has terminals of every outcome and source, gate releases of every kind, traces in phases 1–5 and every retrieval mode', () => {
    const terminals = journal.filter((r) => r.type === 'terminal');
    expect(new Set(terminals.map((t) => t.outcome))).toEqual(new Set(['applied', 'ignored', 'n_a', 'contradicted', 'violated']));
    expect(new Set(terminals.map((t) => t.source))).toEqual(new Set(['delegate', 'reviewer', 'architect', 'architect_marker', 'test_engineer', 'phase_override', 'manual', 'migration', 'unknown']));
    const releases = journal.filter((r) => r.type === 'gate_release');
    expect(releases.map((r) => [r.release_kind, r.phase])).toEqual([['session_reset', 'Phase 3'], ['denial_limit', 'Phase 4'], ['staleness', 'Phase 5']]);
    const memberships = journal.filter((r) => r.type === 'membership');
    expect(new Set(memberships.map((m) => m.phase))).toEqual(new Set(['Phase 1', 'Phase 2', 'Phase 3', 'Phase 4', 'Phase 5']));
    expect(new Set(memberships.map((m) => m.retrieval_mode)).size).toBe(6);
    expect(memberships.some((m) => (m.entries as Rec[]).some((e) => e.tier === 'hive'))).toBe(true);
  });

  it('logs gate denials against criticals the session was shown, including a burst in the last hour', () => {
    const denials = gate.filter((e) => e.event === 'knowledge_application_gate_deny');
    for (const d of denials) {
      for (const traceId of d.trace_ids as string[]) {
        const membership = journal.find((r) => r.type === 'membership' && r.trace_id === traceId) as Rec;
        expect(membership.session_id).toBe(d.sessionID);
        expect(Date.parse(membership.ts as string)).toBeLessThan(Date.parse(d.timestamp as string));
        for (const id of d.entry_ids as string[]) expect((membership.entries as Rec[]).find((e) => e.entry_id === id)?.priority).toBe('critical');
      }
    }
    const lastHour = denials.filter((d) => Date.parse(d.timestamp as string) >= NOW - 3_600_000);
    expect(lastHour.map((d) => [d.tool, d.denial_count])).toEqual([['Task', 1], ['save_plan', 2], ['Task', 3], ['Task', 4]]);
    expect(new Set(lastHour.flatMap((d) => d.entry_ids as string[]))).toEqual(new Set([ID.expiringBlocking]));
    const kinds = new Set(gate.map((e) => String(e.event ?? e.type)));
    for (const kind of ['knowledge_application_gate_warn', 'knowledge_application_gate_deny', 'knowledge_application_gate_denial_limit_clear', 'knowledge_application_gate_staleness_clear', 'knowledge_application_gate_session_reset_clear', 'curator_skipped', 'curator_compliance', 'skill_propagation_warn']) {
      expect(kinds, kind).toContain(kind);
    }
    expect(gate.some((e) => e.reason === 'missing_sessionID')).toBe(true);
    expect(readJsonl(demo.swarm('unacknowledged-criticals.jsonl')).map((u) => u.session_id)).toContain(DEMO_SESSIONS.phase4);
  });

  it('covers every legacy event type, application result, rejection layer and unactionable reason', () => {
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(['retrieved', 'acknowledged', 'applied', 'ignored', 'contradicted', 'violated', 'n_a', 'override', 'outcome', 'archived', 'escalation', 'skill-stale-batch']));
    expect(new Set(readJsonl(demo.swarm('knowledge-application.jsonl')).map((a) => a.result))).toEqual(new Set(['shown', 'acknowledged', 'applied', 'ignored', 'violated']));
    expect(new Set(readJsonl(demo.swarm('knowledge-rejected.jsonl')).map((r) => r.rejection_layer))).toEqual(new Set([1, 2, 3]));
    expect(new Set(readJsonl(demo.swarm('knowledge-unactionable.jsonl')).map((r) => r.unactionable_reason)).size).toBe(3);
    const quarantined = readJsonl(demo.swarm('knowledge-quarantined.jsonl'));
    expect(quarantined.map((q) => q.id)).toContain(ID.retractedQuarantined);
    expect(readJsonl(demo.swarm('knowledge-retractions.jsonl'))[0]?.matched_swarm_ids).toEqual([ID.retractedQuarantined]);
  });

  it('carries the XSS-shaped lessons as plain data', () => {
    expect(byId(ID.xssImgLesson).lesson).toContain('<img src=x onerror=alert(1)>');
    const rejected = readJsonl(demo.swarm('knowledge-rejected.jsonl')).find((r) => r.id === ID.xssScriptRejected) as Rec;
    expect(rejected.lesson).toContain('<script>alert(1)</script>');
    expect(rejected.rejection_layer).toBe(2);
  });

  it('has evergreen and low-utility entries, near-duplicates and the skill-maturity examples', () => {
    const v2 = swarm.filter((e) => Object.keys(ro(e)).length > 3);
    const utility = (e: Rec) => ro(e).applied_explicit_count! / Math.max(1, ro(e).shown_count!);
    const evergreen = v2.filter((e) => (e.confidence as number) >= 0.9 && ro(e).shown_count! >= 3 && utility(e) >= 0.8).map((e) => e.id);
    const lowUtility = v2.filter((e) => ro(e).shown_count! >= 5 && utility(e) <= 0.3).map((e) => e.id);
    expect(evergreen).toContain(ID.evergreen);
    expect(evergreen.length).toBeGreaterThanOrEqual(5);
    expect(lowUtility).toEqual(expect.arrayContaining([ID.lowUtility, ID.skillIneligibleNegative]));
    expect(bigramJaccard(byId(ID.nearDuplicateA).lesson as string, byId(ID.nearDuplicateB).lesson as string)).toBeGreaterThanOrEqual(0.6);
    let accidental = 0;
    const lessons = swarm.map((e) => e.lesson as string);
    for (let i = 0; i < lessons.length; i++) for (let j = i + 1; j < lessons.length; j++) if (bigramJaccard(lessons[i] as string, lessons[j] as string) >= 0.6) accidental++;
    expect(accidental).toBeLessThanOrEqual(3);
    const signal = (e: Rec) => {
      const c = ro(e);
      const p = c.applied_explicit_count! + c.succeeded_after_shown_count!;
      const n = c.ignored_count! + c.violated_count! + c.contradicted_count! + c.failed_after_shown_count!;
      return (p - n) / (p + n + 4);
    };
    const onePhase = byId(ID.skillIneligibleOnePhase);
    expect((onePhase.confirmed_by as Rec[]).length).toBe(1);
    expect(onePhase.confidence).toBeGreaterThanOrEqual(0.7);
    expect(ro(onePhase).applied_explicit_count).toBeLessThan(3);
    expect(signal(onePhase)).toBeGreaterThan(0);
    expect(signal(byId(ID.skillIneligibleNegative))).toBeLessThan(0);
    expect(byId(ID.skillFastTrack)).toMatchObject({ directive_priority: 'high', confidence: 0.62 });
  });

  it('links hive counterparts, spreads the hive over several projects and keeps a link tier for the second project', () => {
    const hive = readJsonl(path.join(demo.hiveDir, 'shared-learnings.jsonl'));
    expect(hive.length).toBeGreaterThanOrEqual(140);
    expect(new Set(hive.map((h) => h.source_project)).size).toBeGreaterThanOrEqual(5);
    const counterpart = hive.find((h) => h.id === ID.hiveCounterpart) as Rec;
    expect(counterpart).toMatchObject({ lesson: byId(ID.promotedWithCounterpart).lesson, source_project: 'billing-api', status: 'promoted' });
    const swarmLessons = new Set(swarm.map((e) => e.lesson));
    expect(hive.filter((h) => swarmLessons.has(h.lesson)).length).toBeGreaterThanOrEqual(4);
    expect(hive.some((h) => h.encounter_score === undefined)).toBe(true);
    const sidecar = readJsonl(path.join(demo.hiveDir, 'shared-learnings-quarantined.jsonl'));
    expect(sidecar.map((s) => s.id)).toEqual([ID.hiveQuarantinedA, ID.hiveQuarantinedB]);
    expect(hive.some((h) => h.id === ID.hiveQuarantinedA)).toBe(false);
    const link = resolveLink(demo.secondProjectDir, demo.hiveDir);
    expect(link).toMatchObject({ linkId: DEMO_LINK_ID, problem: null, orphanedLocalFiles: ['knowledge.jsonl'] });
    const family = ['knowledge.jsonl', 'knowledge-rejected.jsonl', 'knowledge-retractions.jsonl', 'knowledge-events.jsonl', 'knowledge-counter-baseline.json', 'knowledge-quarantined.jsonl', 'knowledge-unactionable.jsonl', 'knowledge-application.jsonl'];
    expect(fs.readdirSync(link.dir as string).sort()).toEqual(family.sort());
  });

  it('keeps the hive-quarantine backup consistent with the store, the sidecar and the audit log', () => {
    const backups = path.join(demo.hiveDir, 'quarantine-backups');
    const [name] = fs.readdirSync(backups);
    const dir = path.join(backups, name as string);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Rec;
    const before = fs.readFileSync(path.join(dir, 'shared-learnings.jsonl'), 'utf8').split('\n').slice(0, -1);
    const store = fs.readFileSync(path.join(demo.hiveDir, 'shared-learnings.jsonl'));
    const selected = manifest.selected as Rec[];
    for (const s of selected) expect(sha256Hex(before[s.line_index as number] as string)).toBe(s.line_sha256);
    const indexes = new Set(selected.map((s) => s.line_index));
    expect(before.filter((_, i) => !indexes.has(i)).map((l) => `${l}\n`).join('')).toBe(store.toString('utf8'));
    expect((manifest.store as Rec).file_sha256).toBe(sha256Hex(fs.readFileSync(path.join(dir, 'shared-learnings.jsonl'))));
    const result = JSON.parse(fs.readFileSync(path.join(dir, 'result.json'), 'utf8')) as Rec;
    expect((result.post as Rec).file_sha256).toBe(sha256Hex(store));
    const sidecar = readJsonl(path.join(demo.hiveDir, 'shared-learnings-quarantined.jsonl'));
    expect(sidecar.map((s) => [s.quarantine_backup, s.original_line_sha256])).toEqual(selected.map((s) => [name, s.line_sha256]));
    const audit = readJsonl(path.join(demo.hiveDir, 'shared-knowledge-events.jsonl')).filter((e) => e.type === 'quarantined');
    expect(audit.map((a) => a.entry_id)).toEqual(selected.map((s) => s.id));
    expect(JSON.stringify(audit)).not.toContain(String(sidecar[0]?.lesson));
  });

  it('stamps skill sources with paths of skills that exist', () => {
    for (const e of swarm.filter((x) => x.generated_skill_path)) expect(fs.existsSync(path.join(demo.projectDir, e.generated_skill_path as string)), String(e.id)).toBe(true);
  });
});
