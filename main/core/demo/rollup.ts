/**
 * The plugin's counter rollup (`readKnowledgeCounterRollups`): baseline, then the events log,
 * then the legacy application log. The generator uses it to give story entries the stored
 * counters the plugin would have written; tests use it to check the demo's claims.
 */
export interface CounterRollup {
  shown_count: number;
  acknowledged_count: number;
  applied_explicit_count: number;
  ignored_count: number;
  violated_count: number;
  contradicted_count: number;
  n_a_count: number;
  succeeded_after_shown_count: number;
  failed_after_shown_count: number;
  partial_after_shown_count: number;
  last_applied_at?: string;
  last_acknowledged_at?: string;
  violation_timestamps: string[];
}

export const emptyRollup = (): CounterRollup => ({
  shown_count: 0,
  acknowledged_count: 0,
  applied_explicit_count: 0,
  ignored_count: 0,
  violated_count: 0,
  contradicted_count: 0,
  n_a_count: 0,
  succeeded_after_shown_count: 0,
  failed_after_shown_count: 0,
  partial_after_shown_count: 0,
  violation_timestamps: [],
});

type Rec = Record<string, unknown>;

const maxIso = (a: string | undefined, b: string): string => (a === undefined || b > a ? b : a);

export function computeRollups(baseline: Record<string, CounterRollup>, events: readonly Rec[], application: readonly Rec[]): Map<string, CounterRollup> {
  const rollups = new Map<string, CounterRollup>();
  const get = (id: string) => {
    let r = rollups.get(id);
    if (!r) {
      r = baseline[id] ? { ...baseline[id], violation_timestamps: [...baseline[id].violation_timestamps] } : emptyRollup();
      rollups.set(id, r);
    }
    return r;
  };
  for (const id of Object.keys(baseline)) get(id);
  const hasRetrieval = new Set(Object.keys(baseline).filter((id) => (baseline[id]?.shown_count ?? 0) > 0));
  for (const event of events) {
    const ts = String(event.timestamp ?? '');
    const id = typeof event.knowledge_id === 'string' ? event.knowledge_id : null;
    switch (event.type) {
      case 'retrieved':
        for (const rid of (event.result_ids as string[]) ?? []) {
          get(rid).shown_count++;
          hasRetrieval.add(rid);
        }
        break;
      case 'acknowledged':
        if (id) {
          const r = get(id);
          r.acknowledged_count++;
          r.last_acknowledged_at = maxIso(r.last_acknowledged_at, ts);
        }
        break;
      case 'applied':
        if (id) {
          const r = get(id);
          r.applied_explicit_count++;
          r.last_applied_at = maxIso(r.last_applied_at, ts);
        }
        break;
      case 'ignored':
        if (id) get(id).ignored_count++;
        break;
      case 'violated':
        if (id) {
          const r = get(id);
          r.violated_count++;
          r.violation_timestamps.push(ts);
        }
        break;
      case 'contradicted':
        if (id) get(id).contradicted_count++;
        break;
      case 'n_a':
        if (id) get(id).n_a_count++;
        break;
      case 'outcome':
        if (id) {
          const r = get(id);
          if (event.outcome === 'success') r.succeeded_after_shown_count++;
          else if (event.outcome === 'failure') r.failed_after_shown_count++;
          else if (event.outcome === 'partial') r.partial_after_shown_count++;
        }
        break;
      default:
        break;
    }
  }
  for (const line of application) {
    const id = typeof line.knowledgeId === 'string' ? line.knowledgeId : null;
    if (!id) continue;
    const ts = String(line.timestamp ?? '');
    switch (line.result) {
      case 'shown':
        if (!hasRetrieval.has(id)) get(id).shown_count++;
        break;
      case 'acknowledged': {
        const r = get(id);
        r.acknowledged_count++;
        r.last_acknowledged_at = maxIso(r.last_acknowledged_at, ts);
        break;
      }
      case 'applied': {
        const r = get(id);
        r.applied_explicit_count++;
        r.last_applied_at = maxIso(r.last_applied_at, ts);
        break;
      }
      case 'ignored':
        get(id).ignored_count++;
        break;
      case 'violated': {
        const r = get(id);
        r.violated_count++;
        r.violation_timestamps.push(ts);
        break;
      }
      default:
        break;
    }
  }
  for (const r of rollups.values()) r.violation_timestamps = r.violation_timestamps.sort().reverse().slice(0, 10);
  return rollups;
}
