/**
 * The error prefixes the opencode-swarm plugin throws from `tool.execute.before` (copied from the
 * plugin's chain, in chain order). A tool part whose error text starts with one of these was
 * blocked by a swarm gate; anything else is an ordinary tool failure.
 *
 * `gate` is the prefix without its colon and without the decorative "🛑 " some messages carry,
 * so it is stable to filter and grep on.
 */
interface GatePrefix {
  /** Literal start of the message (case-sensitive, like the plugin). */
  readonly prefix: string;
  readonly gate: string;
  /** True for the prefixes followed by a bracketed code, e.g. `FULL_AUTO_DENY [budget]:`. */
  readonly coded?: boolean;
}

const plain = (prefix: string): GatePrefix => ({
  prefix,
  gate: prefix.replace(/:$/, '').replace(/^🛑\s*/u, '').trim(),
});
const coded = (name: string): GatePrefix => ({ prefix: `${name} [`, gate: name, coded: true });

export const KNOWLEDGE_GATE = 'KNOWLEDGE_ENFORCE_GATE_DENY';
export const PHASE_COMPLETE_BLOCKED = 'PHASE_COMPLETE_BLOCKED';

/** Longest prefixes first where one could shadow another. */
const GATE_PREFIXES: readonly GatePrefix[] = [
  // knowledge application gate
  plain('KNOWLEDGE_ENFORCE_GATE_DENY:'),
  // guardrails
  plain('[sandbox] BLOCKED:'),
  plain('WRITE BLOCKED:'),
  plain('BLOCKED:'),
  plain('bash write detected outside declared scope:'),
  plain('🛑 LIMIT REACHED:'),
  plain('🛑 CIRCUIT BREAKER:'),
  plain('CIRCUIT BREAKER:'),
  plain('🛑 PRM HARD STOP:'),
  plain('PLAN STATE VIOLATION:'),
  plain('SPEC_DRIFT_VIOLATION:'),
  plain('SPEC_DRIFT_BLOCK:'),
  // scope guard
  plain('SCOPE VIOLATION:'),
  // delegation gate
  plain('TASK_COMPLETION_GATE_VIOLATION:'),
  plain('SWARM_BACKGROUND_TASK_BLOCKED:'),
  plain('REVIEWER_GATE_VIOLATION:'),
  plain('PARALLEL_SLOTS_EXHAUSTED:'),
  plain('STANDARD_WORKTREE_ISOLATION_SERIALIZED:'),
  plain('STANDARD_WORKTREE_ISOLATION_UNSAFE:'),
  plain('STANDARD_WORKTREE_TRACKING_CAP_EXCEEDED:'),
  plain('STANDARD_WORKTREE_ISOLATION_UNAVAILABLE:'),
  plain('STANDARD_WORKTREE_PROVISION_FAILED:'),
  plain('STANDARD_WORKTREE_SESSION_CREATE_FAILED:'),
  // full-auto delegation and permission
  plain('FULL_AUTO_DELEGATION_DENY:'),
  plain('FULL_AUTO_STATE_UNREADABLE:'),
  plain('FULL_AUTO_PAUSED:'),
  plain('FULL_AUTO_TERMINATED:'),
  coded('FULL_AUTO_DENY'),
  coded('FULL_AUTO_PAUSE'),
  coded('FULL_AUTO_ESCALATE_HUMAN'),
  plain('FULL_AUTO_ESCALATE_HUMAN:'),
  plain('FULL_AUTO_BLOCKED:'),
  plain('FULL_AUTO_CRITIC_DENY:'),
  // skill propagation gate
  plain('Blocked by skill propagation gate:'),
  // messages-transform gate (not a tool error, but the same family)
  plain('🛑 QA GATE ENFORCEMENT:'),
];

interface GateMatch {
  gate: string;
  /** The bracketed code of `FULL_AUTO_DENY [<code>]:`-style messages. */
  code: string | null;
  /** The message with any host-added `Error: ` stripped. */
  message: string;
}

/** Whether an error text is a swarm gate denial, and which gate threw it. */
export function matchGatePrefix(errorText: string): GateMatch | null {
  const message = errorText.replace(/^\s+/, '').replace(/^Error:\s*/, '');
  for (const entry of GATE_PREFIXES) {
    if (!message.startsWith(entry.prefix)) continue;
    if (entry.coded) {
      const close = message.indexOf(']:', entry.prefix.length);
      if (close < 0 || close - entry.prefix.length > 64) continue;
      return { gate: entry.gate, code: message.slice(entry.prefix.length, close), message };
    }
    return { gate: entry.gate, code: null, message };
  }
  return null;
}
