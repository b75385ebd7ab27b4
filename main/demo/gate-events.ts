import { DAY, HOUR, MINUTE, iso } from './clock';
import { DEMO_SESSIONS as S, DEMO_SKILLS } from './ids';
import { entrySetKey } from './receipt-chain';
import { GATE_STALENESS_MS, MAX_GATE_DENIALS, type Story } from './story-types';

type Rec = Record<string, unknown>;

export interface ComplianceObservation {
  phase: number;
  atMs: number;
  type: 'missing_reviewer' | 'missing_retro' | 'missing_sme' | 'skipped_test' | 'workflow_deviation';
  severity: 'info' | 'warning';
  description: string;
}

/**
 * `.swarm/events.jsonl`: the snapshot's gate warnings (from when the project ran in warn mode),
 * the PROPOSED deny / denial-limit / staleness / session-reset events of the enforce-mode
 * story (each clear quotes its gate_release `receipt_seq`), curator and skill events.
 */
export function buildSwarmEvents(story: Story, releaseSeqs: Map<string, number>, curatorSkipped: Rec[], compliance: ComplianceObservation[], now: number): Rec[] {
  const events: Array<{ ms: number; line: Rec }> = [];
  for (const warn of story.warns) {
    const line: Rec = warn.sessionId
      ? { timestamp: iso(warn.atMs), event: 'knowledge_application_gate_warn', tool: warn.tool, agent: 'architect', sessionID: warn.sessionId, unacknowledged_critical_ids: warn.entryIds }
      : { timestamp: iso(warn.atMs), event: 'knowledge_application_gate_warn', tool: warn.tool, agent: 'architect', reason: 'missing_sessionID', mode: 'warn' };
    events.push({ ms: warn.atMs, line });
  }
  for (const d of story.denials) {
    events.push({
      ms: d.atMs,
      line: {
        timestamp: iso(d.atMs), event: 'knowledge_application_gate_deny', sessionID: d.sessionId, tool: d.tool, agent: d.agent,
        entry_ids: d.entryIds, trace_ids: d.traceIds, entry_set_key: entrySetKey(d.entryIds), denial_count: d.denialCount, max_gate_denials: MAX_GATE_DENIALS,
      },
    });
  }
  for (const r of story.releases) {
    const entryIds = [...new Set(r.pending.map((p) => p.entryId))];
    const traceIds = [...new Set(r.pending.map((p) => p.traceId))];
    if (r.kind === 'session_reset') {
      events.push({ ms: r.atMs, line: { timestamp: iso(r.atMs), event: 'knowledge_application_gate_session_reset_clear', sessionID: r.sessionId, actor: 'user', command: '/swarm reset-session', cleared_entry_ids: entryIds } });
      continue;
    }
    const line: Rec = {
      timestamp: iso(r.atMs), event: r.kind === 'denial_limit' ? 'knowledge_application_gate_denial_limit_clear' : 'knowledge_application_gate_staleness_clear',
      sessionID: r.sessionId, tool: r.tool, agent: 'architect', entry_ids: entryIds, trace_ids: traceIds, entry_set_key: entrySetKey(entryIds),
      denial_count: r.denialCount, max_gate_denials: MAX_GATE_DENIALS,
    };
    if (r.kind === 'staleness') Object.assign(line, { oldest_shown_at: iso(r.oldestShownMs), age_ms: r.atMs - r.oldestShownMs, gate_staleness_ms: GATE_STALENESS_MS });
    line.release = 'nonterminal';
    const seq = releaseSeqs.get(`${r.kind}:${r.sessionId}`);
    if (seq !== undefined) line.receipt_seq = seq;
    events.push({ ms: r.atMs, line });
  }
  for (const skipped of curatorSkipped) events.push({ ms: Date.parse(skipped.timestamp as string), line: skipped });
  for (const c of compliance) {
    events.push({ ms: c.atMs, line: { type: 'curator_compliance', timestamp: iso(c.atMs), phase: c.phase, observation_type: c.type, severity: c.severity, description: c.description } });
  }
  const available = DEMO_SKILLS.active.map((slug) => `.opencode/skills/generated/${slug}/SKILL.md`);
  for (const [ago, sessionId, target] of [
    [4 * DAY + 5 * MINUTE, S.phase4, 'coder'],
    [9 * HOUR, S.phase5, 'test_engineer'],
  ] as const) {
    events.push({ ms: now - ago, line: { type: 'skill_propagation_warn', timestamp: iso(now - ago), tool: 'Task', agent: 'architect', target_agent: target, sessionID: sessionId, skills_missing: true, available_skills: available } });
  }
  return events.sort((a, b) => a.ms - b.ms).map((e) => e.line);
}
