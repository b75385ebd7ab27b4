import { canonicalJson } from '../rules/canonical-json';
import { isOutcome } from '../rules/receipt-format';

/**
 * Rebuilds the ledger's live state from journal records, as the (proposed) plugin would when it
 * discards a stale snapshot:
 *   live = { traces: [{trace_id, session_id, phase, agent, retrieval_mode, displayed_at,
 *            entries: [{entry_id, tier, priority, obligation, terminals: [{outcome, source, ts, reason}],
 *            release: null | {kind, ts}}]}], open_phases, grace_phases: [{phase, session_id, closed_at,
 *            archive_eligible_after}], uncertainty }
 * A phase's traces leave live state once the close of that phase has passed its grace period
 * (archive_eligible_after ≤ the build time); until then the close is listed in grace_phases.
 */

type Rec = Record<string, unknown>;
interface LiveEntry extends Rec {
  entry_id: unknown;
  terminals: Rec[];
  release: Rec | null;
}
interface LiveTrace extends Rec {
  trace_id: unknown;
  phase: unknown;
  entries: LiveEntry[];
}
interface LiveState {
  traces: LiveTrace[];
  open_phases: string[];
  grace_phases: Rec[];
  uncertainty: Rec[];
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function fromCheckpoint(live: unknown): { traces: LiveTrace[]; open: string[]; grace: Rec[]; uncertainty: Rec[] } {
  const l = (live ?? {}) as Rec;
  const traces = (Array.isArray(l.traces) ? l.traces : []).map((t: Rec) => ({
    ...t,
    entries: (Array.isArray(t.entries) ? t.entries : []).map((e: Rec) => ({
      ...e,
      terminals: Array.isArray(e.terminals) ? [...e.terminals] : [],
      release: (e.release as Rec | null) ?? null,
    })),
  })) as LiveTrace[];
  return {
    traces,
    open: (Array.isArray(l.open_phases) ? l.open_phases : []).filter((p): p is string => typeof p === 'string'),
    grace: Array.isArray(l.grace_phases) ? [...(l.grace_phases as Rec[])] : [],
    uncertainty: Array.isArray(l.uncertainty) ? [...(l.uncertainty as Rec[])] : [],
  };
}

/** Folds journal records one at a time; `state(builtAtMs)` is the live state after those so far. */
export class LiveStateBuilder {
  private traces: LiveTrace[] = [];
  private open: string[] = [];
  private grace: Rec[] = [];
  private uncertainty: Rec[] = [];
  // Each membership is tied to the first close of its phase that follows it.
  private readonly closeOf = new Map<LiveTrace, Rec>();
  private readonly waiting = new Map<string, LiveTrace[]>();
  private readonly byTrace = new Map<string, LiveTrace>();

  add(record: Rec): void {
    switch (record.type) {
      case 'checkpoint':
        this.restore(record.live);
        break;
      case 'membership': {
        const phase = String(record.phase);
        const trace: LiveTrace = {
          trace_id: record.trace_id,
          session_id: record.session_id,
          phase: record.phase,
          agent: record.agent,
          retrieval_mode: record.retrieval_mode,
          displayed_at: record.ts,
          entries: (Array.isArray(record.entries) ? (record.entries as Rec[]) : []).map((e) => ({
            entry_id: e.entry_id,
            tier: e.tier,
            priority: e.priority,
            obligation: e.obligation,
            terminals: [],
            release: null,
          })),
        };
        this.traces.push(trace);
        this.byTrace.set(String(record.trace_id), trace);
        this.wait(phase, trace);
        if (!this.open.includes(phase)) this.open.push(phase);
        break;
      }
      case 'terminal': {
        if (!isOutcome(record.outcome)) break; // audit-only events never become terminals
        const entry = this.byTrace.get(String(record.trace_id))?.entries.find((e) => e.entry_id === record.entry_id);
        entry?.terminals.push({ outcome: record.outcome, source: record.source, ts: record.ts, reason: record.reason ?? null });
        break;
      }
      case 'gate_release':
        for (const pending of Array.isArray(record.pending) ? (record.pending as Rec[]) : []) {
          const entry = this.byTrace.get(String(pending.trace_id))?.entries.find((e) => e.entry_id === pending.entry_id);
          if (entry) entry.release = { kind: record.release_kind, ts: record.ts };
        }
        break;
      case 'phase_close': {
        const phase = String(record.closed_phase ?? record.phase);
        for (const trace of this.waiting.get(phase) ?? []) this.closeOf.set(trace, record);
        this.waiting.delete(phase);
        this.open = this.open.filter((p) => p !== phase);
        this.grace.push({ phase, session_id: record.session_id, closed_at: record.ts, archive_eligible_after: record.archive_eligible_after });
        break;
      }
      case 'uncertainty':
        this.uncertainty.push({ kind: record.kind, detail: record.detail ?? null, phase: record.phase ?? null, session_id: record.session_id ?? null, repair_id: record.repair_id ?? null });
        break;
      case 'repair': {
        const evaluation = record.re_evaluation as Rec | null | undefined;
        if (evaluation?.scope_complete === true) this.uncertainty = this.uncertainty.filter((u) => u.repair_id !== record.repair_id);
        break;
      }
    }
  }

  state(builtAtMs: number): LiveState {
    const archived = (close: Rec | undefined) => {
      const after = Date.parse(text(close?.archive_eligible_after) ?? '');
      return close !== undefined && Number.isFinite(after) && after <= builtAtMs;
    };
    return {
      traces: this.traces.filter((t) => !archived(this.closeOf.get(t))),
      open_phases: [...this.open],
      grace_phases: this.grace.filter((g) => !archived(g)),
      uncertainty: [...this.uncertainty],
    };
  }

  private wait(phase: string, trace: LiveTrace): void {
    const list = this.waiting.get(phase);
    if (list) list.push(trace);
    else this.waiting.set(phase, [trace]);
  }

  private restore(live: unknown): void {
    const restored = fromCheckpoint(live);
    this.traces = restored.traces;
    this.open = restored.open;
    this.grace = restored.grace;
    this.uncertainty = restored.uncertainty;
    this.closeOf.clear();
    this.waiting.clear();
    this.byTrace.clear();
    for (const trace of this.traces) {
      this.byTrace.set(String(trace.trace_id), trace);
      const phase = String(trace.phase);
      const close = this.grace.find((g) => g.phase === phase);
      if (close) this.closeOf.set(trace, close);
      else this.wait(phase, trace);
    }
  }
}

/** Order-insensitive canonical form, so a snapshot that lists the same state in another order still matches. */
function normaliseLive(live: unknown): string {
  const l = (live ?? {}) as Rec;
  const sortBy = <T>(items: T[], key: (item: T) => string) => [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const list = (value: unknown) => (Array.isArray(value) ? (value as Rec[]) : []);
  const traces = sortBy(list(l.traces), (t) => String(t.trace_id)).map((t) => ({
    ...t,
    entries: sortBy(list(t.entries), (e) => String(e.entry_id)).map((e) => ({
      ...e,
      terminals: sortBy(list(e.terminals), (x) => canonicalJson(x)),
      release: e.release ?? null,
    })),
  }));
  return canonicalJson({
    traces,
    open_phases: [...list(l.open_phases)].map(String).sort(),
    grace_phases: sortBy(list(l.grace_phases), (g) => canonicalJson(g)),
    uncertainty: sortBy(list(l.uncertainty), (u) => canonicalJson(u)),
  });
}

/** The first difference an operator can recognise, or null when both describe the same state. */
export function describeLiveDifference(snapshotLive: unknown, rebuilt: LiveState): string | null {
  if (normaliseLive(snapshotLive) === normaliseLive(rebuilt)) return null;
  const l = (snapshotLive ?? {}) as Rec;
  const snapTraces = new Map((Array.isArray(l.traces) ? (l.traces as Rec[]) : []).map((t) => [String(t.trace_id), t]));
  const rebuiltTraces = new Map(rebuilt.traces.map((t) => [String(t.trace_id), t]));
  const missing = [...rebuiltTraces.keys()].filter((id) => !snapTraces.has(id));
  if (missing.length) return `snapshot lacks ${missing.length} ${missing.length === 1 ? 'trace' : 'traces'} the journal has live, e.g. ${missing[0]}`;
  const extra = [...snapTraces.keys()].filter((id) => !rebuiltTraces.has(id));
  if (extra.length) return `snapshot holds ${extra.length} ${extra.length === 1 ? 'trace' : 'traces'} the journal does not have live, e.g. ${extra[0]}`;
  for (const [id, trace] of rebuiltTraces) {
    if (normaliseLive({ traces: [snapTraces.get(id)] }) !== normaliseLive({ traces: [trace] })) return `trace ${id} differs (terminals or releases)`;
  }
  if (normaliseLive({ open_phases: l.open_phases }) !== normaliseLive({ open_phases: rebuilt.open_phases })) return 'open phases differ';
  if (normaliseLive({ grace_phases: l.grace_phases }) !== normaliseLive({ grace_phases: rebuilt.grace_phases })) return 'phases in their grace period differ';
  return 'uncertainty differs';
}
