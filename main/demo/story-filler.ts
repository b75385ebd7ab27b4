import { HOUR, MINUTE } from './clock';
import type { EntryDraft, Priority } from './entry-model';
import { DEMO_TRACES } from './ids';
import type { Rng } from './rng';
import type { Displayed, LegacyRoute, Outcome, RetrievalMode, Story, Terminal, TerminalSource } from './story-types';

interface Role {
  agent: string;
  mode: RetrievalMode;
  sources: TerminalSource[];
}

/** Which retrievals each agent makes and who answers them. */
const ROLES: ReadonlyArray<readonly [Role, number]> = [
  [{ agent: 'architect', mode: 'auto_injection', sources: ['architect_marker', 'architect_marker', 'architect'] }, 40],
  [{ agent: 'coder', mode: 'delegate_inject', sources: ['delegate'] }, 25],
  [{ agent: 'reviewer', mode: 'review_context', sources: ['reviewer'] }, 15],
  [{ agent: 'test_engineer', mode: 'coder_context', sources: ['test_engineer'] }, 10],
  [{ agent: 'architect', mode: 'manual', sources: ['architect'] }, 7],
  [{ agent: 'architect', mode: 'curator', sources: [] }, 3],
];

/** The outcomes each producer can emit, as docs/plugin-formats.md#knowledge-events describes the writers. */
const SOURCE_OUTCOMES: Partial<Record<TerminalSource, ReadonlyArray<readonly [Outcome, number]>>> = {
  architect_marker: [['applied', 55], ['n_a', 25], ['ignored', 12], ['violated', 8]],
  architect: [['applied', 50], ['ignored', 35], ['contradicted', 15]],
  delegate: [['applied', 50], ['n_a', 30], ['ignored', 12], ['violated', 8]],
  reviewer: [['applied', 60], ['n_a', 25], ['violated', 15]],
  test_engineer: [['applied', 65], ['n_a', 20], ['contradicted', 15]],
};

const REASONS: Record<Exclude<Outcome, 'applied'>, string[]> = {
  ignored: ['not_relevant: task only touches documentation', 'stale: the module was rewritten in phase 2', 'too_generic: no concrete step for this change', 'already_satisfied: covered by the shared helper', 'superseded: replaced by a newer directive'],
  n_a: ['no database code touched in this task', 'task is a docs-only change', 'no outbound calls in this change', 'the directive targets the worker, this task is API only', 'no migrations in this task'],
  violated: ['diff skips the required step', 'reviewer found the forbidden pattern in the diff', 'evidence missing for the required action', 'task marked complete before the check ran'],
  contradicted: ['revise: behaviour differs on the current provider API version', 'archive: the helper it names was removed', 'revise: the measured numbers do not support it'],
};

const QUERIES = ['refund endpoint validation', 'invoice pdf rendering', 'payout retry worker', 'ledger balance report', 'merchant onboarding form', 'webhook signature check', 'currency rounding fix', 'export to accounting', 'rate limit handling', 'customer search endpoint'];

const legacyRouteFor = (source: TerminalSource): LegacyRoute => (source === 'architect_marker' || source === 'unknown' ? 'application' : source === 'manual' || source === 'phase_override' ? 'none' : 'events');

interface FillerPool {
  swarm: EntryDraft[];
  hive: EntryDraft[];
}

const priorityOf = (entry: EntryDraft): Priority => {
  const p = entry.directive_priority ?? 'medium';
  return p === 'critical' ? 'high' : p;
};

/**
 * Seeded everyday traffic around the notable story: advisory entries only (criticals belong
 * to the hand-written gate stories), every retrieval mode, outcomes each producer can emit.
 * Phase 1 predates the ledger, so its terminals carry `source: migration`.
 */
export function addFillerTraces(story: Story, rng: Rng, pool: FillerPool, now: number, perPhase: readonly number[] = [10, 8, 8, 7, 6]): void {
  story.phases.forEach((phase, index) => {
    const count = perPhase[index] ?? 0;
    const endMs = (phase.closeMs ?? now) - HOUR;
    const span = endMs - phase.startMs - HOUR;
    const taskCount = 4 + (index % 2);
    for (let i = 0; i < count; i++) {
      const isCuratorTrace = phase.closeMs === null && i === count - 1;
      const role = isCuratorTrace ? (ROLES[ROLES.length - 1] as readonly [Role, number])[0] : rng.weighted(ROLES);
      const atMs = phase.startMs + HOUR + Math.floor(((i + rng.next()) / count) * span);
      const entries: Displayed[] = [];
      const size = rng.int(2, 5);
      const chosen = new Set<string>();
      for (let k = 0; k < size; k++) {
        const fromHive = pool.hive.length > 0 && rng.chance(0.2);
        const entry = rng.pick(fromHive ? pool.hive : pool.swarm);
        if (chosen.has(entry.id)) continue;
        chosen.add(entry.id);
        entries.push({ entryId: entry.id, tier: entry.tier, priority: priorityOf(entry), obligation: 'advisory', score: rng.float(0.3, 1.4) });
      }
      entries.sort((a, b) => b.score - a.score);
      const traceId = isCuratorTrace ? DEMO_TRACES.phase5Curator : rng.uuid();
      story.traces.push({
        traceId,
        phase: phase.label,
        sessionId: phase.sessionId,
        taskId: role.mode === 'curator' ? null : `${phase.number}.${1 + Math.floor((i / count) * taskCount)}`,
        agent: role.agent,
        mode: role.mode,
        query: rng.pick(QUERIES),
        atMs,
        entries,
      });
      for (const shown of entries) {
        if (role.sources.length === 0 || !rng.chance(0.78)) continue;
        const producer = rng.chance(0.03) ? 'unknown' : rng.pick(role.sources);
        const outcomes = SOURCE_OUTCOMES[producer];
        const outcome: Outcome = outcomes ? rng.weighted(outcomes) : 'n_a';
        const source: TerminalSource = phase.number === 1 ? 'migration' : producer;
        const terminalAt = Math.min(atMs + rng.int(3 * MINUTE, 6 * HOUR), endMs + 30 * MINUTE, now - MINUTE);
        const terminal: Terminal = {
          traceId,
          entryId: shown.entryId,
          outcome,
          source,
          agent: producer === 'delegate' ? role.agent : producer === 'reviewer' ? 'reviewer' : producer === 'test_engineer' ? 'test_engineer' : 'architect',
          atMs: terminalAt,
          reason: outcome === 'applied' ? null : rng.pick(REASONS[outcome]),
          evidence: outcome === 'applied' && rng.chance(0.4) ? { files: [`src/${rng.pick(['refunds', 'invoices', 'payouts', 'ledger'])}/index.ts`], commands: [], tests: [], summary: `verified_by=${role.agent}` } : null,
          legacy: legacyRouteFor(producer),
        };
        if (producer === 'reviewer' || producer === 'test_engineer') terminal.legacySource = producer;
        story.terminals.push(terminal);
      }
    }
  });
}
