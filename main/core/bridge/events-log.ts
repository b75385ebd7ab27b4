import crypto from 'node:crypto';
import type { FeedItem, FeedKind } from '../../../shared/contract/live';
import { capText } from './classifier';
import { KNOWLEDGE_GATE } from './gate-prefixes';

/**
 * Gate events the plugin writes to `<project>/.swarm/events.jsonl` (never link-redirected). The
 * file mixes writers: the discriminator is `event` on some lines and `type` on others. Only the
 * gate family becomes feed items; curator and other lines are not gate events and are ignored.
 *
 *   knowledge_application_gate_warn                 timestamp, tool, agent, sessionID, unacknowledged_critical_ids[]
 *                                                   (or reason "missing_sessionID", mode)
 *   knowledge_application_gate_deny                 timestamp, sessionID, tool, agent, entry_ids[], trace_ids[],
 *   knowledge_application_gate_denial_limit_clear     entry_set_key, denial_count, max_gate_denials
 *   knowledge_application_gate_staleness_clear      + oldest_shown_at, age_ms, gate_staleness_ms (+ release, receipt_seq)
 *   knowledge_application_gate_session_reset_clear  timestamp, sessionID, actor, command, cleared_entry_ids[]
 *   skill_propagation_warn (type)                   timestamp, tool, agent, target_agent, sessionID, available_skills[]
 */
const GATE_EVENTS: Record<string, { kind: FeedKind; label: string }> = {
  knowledge_application_gate_warn: { kind: 'warn', label: 'knowledge gate warned' },
  knowledge_application_gate_deny: { kind: 'denial', label: 'knowledge gate denied' },
  knowledge_application_gate_denial_limit_clear: { kind: 'clear', label: 'denial limit reached: gate released' },
  knowledge_application_gate_staleness_clear: { kind: 'clear', label: 'stale criticals: gate released' },
  knowledge_application_gate_session_reset_clear: { kind: 'clear', label: 'session reset: gate cleared' },
  skill_propagation_warn: { kind: 'warn', label: 'skill propagation gate warned' },
};

const ID_FIELDS = ['unacknowledged_critical_ids', 'entry_ids', 'cleared_entry_ids'] as const;
const MAPPED = new Set(['event', 'type', 'timestamp', 'sessionID', 'tool', 'agent', 'message', ...ID_FIELDS]);
const MAX_EXTRA = 24;

const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string').slice(0, 64) : []);

function eventsItemId(lineText: string): string {
  return `ev:${crypto.createHash('sha256').update(lineText).digest('hex').slice(0, 24)}`;
}

function parseTime(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value < 1e12 ? value * 1000 : value;
  if (typeof value === 'string') {
    const t = Date.parse(value);
    return Number.isNaN(t) ? null : t;
  }
  return null;
}

function describe(name: string, label: string, record: Record<string, unknown>, ids: string[]): string {
  const parts = [label];
  const tool = str(record.tool);
  if (tool) parts.push(`tool ${tool}`);
  const agent = str(record.agent);
  if (agent) parts.push(`agent ${agent}`);
  if (ids.length) parts.push(`directive(s) ${ids.join(', ')}`);
  if (typeof record.denial_count === 'number') parts.push(`denial ${record.denial_count}${typeof record.max_gate_denials === 'number' ? ` of ${record.max_gate_denials}` : ''}`);
  if (typeof record.age_ms === 'number') parts.push(`oldest shown ${Math.round(record.age_ms / 60000)} min ago`);
  const reason = str(record.reason);
  if (reason) parts.push(`reason ${reason}`);
  if (name === 'skill_propagation_warn' && str(record.target_agent)) parts.push(`delegating to ${record.target_agent} without SKILLS`);
  return parts.join(' · ');
}

/**
 * One events.jsonl record → a feed item, or null when it is not a gate event. `problem` explains
 * why a gate event was still unusable (no valid timestamp).
 */
export function parseGateEvent(
  record: Record<string, unknown>,
  lineText: string,
  directory: string,
): { item: FeedItem | null; problem: string | null } {
  const name = str(record.event) ?? str(record.type);
  const spec = name ? GATE_EVENTS[name] : undefined;
  if (!name || !spec) return { item: null, problem: null };
  const time = parseTime(record.timestamp);
  if (time === null) return { item: null, problem: `${name} without a valid timestamp` };
  const ids: string[] = [];
  for (const field of ID_FIELDS) for (const id of strings(record[field])) if (!ids.includes(id)) ids.push(id);
  const extra: FeedItem['extra'] = { event: name };
  for (const [key, value] of Object.entries(record)) {
    if (MAPPED.has(key) || Object.keys(extra).length >= MAX_EXTRA) continue;
    if (typeof value === 'string') extra[key] = value.slice(0, 500);
    else if (typeof value === 'number' || typeof value === 'boolean' || value === null) extra[key] = value;
    else if (Array.isArray(value)) extra[key] = strings(value);
  }
  return {
    problem: null,
    item: {
      id: eventsItemId(lineText),
      kind: spec.kind,
      source: 'events',
      sources: ['events'],
      time,
      serverId: null,
      directory,
      projectID: null,
      sessionID: str(record.sessionID),
      messageID: null,
      callID: null,
      agent: str(record.agent),
      tool: str(record.tool),
      gate: spec.kind === 'denial' ? KNOWLEDGE_GATE : name,
      code: null,
      directiveIds: ids,
      message: capText(str(record.message) ?? describe(name, spec.label, record, ids)),
      input: null,
      replayed: false,
      followUp: null,
      extra,
    },
  };
}
