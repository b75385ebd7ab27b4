import { matchGatePrefix, PHASE_COMPLETE_BLOCKED } from './gate-prefixes';

/** A tool call a swarm gate refused: thrown (`denial`) or reported inside a completed result (`block`). */
export interface ClassifiedBlock {
  kind: 'denial' | 'block';
  gate: string;
  code: string | null;
  sessionID: string;
  messageID: string;
  partID: string;
  callID: string;
  tool: string;
  /** Epoch ms: when the tool call ended (the moment of denial), else the event time. */
  time: number;
  directiveIds: string[];
  message: string;
  /** The arguments the model sent, as JSON, shortened. */
  input: string | null;
}

const MAX_MESSAGE_CHARS = 16_000;
const MAX_INPUT_CHARS = 2_000;
/** phase_complete's verdict is near the start of its output; never scan a megabyte of tool output. */
const MAX_OUTPUT_SCAN = 64 * 1024;
const MAX_IDS = 32;

const PHASE_BLOCK_REASONS = [
  'unresolved_critical_directives',
  'directive_gate_failed_closed',
  'override_denied_non_architect',
  'override_requires_justification',
] as const;

const UUID_RE = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const SHORT_ID_RE = /\b[A-Z]{1,6}-\d{1,8}\b/g;
const LIST_TOKEN_RE = /^[A-Za-z0-9][A-Za-z0-9_-]{1,63}$/;
/** "directive(s) <ids> require …" (knowledge gate) or "directive(s): <ids>" (phase_complete). */
const DIRECTIVE_LIST_RE = /directive\(s\)\s*:?\s*(.+?)(?=\s+require\b|[.;\n"(—]|\s+-\s|$)/;

/** Directive ids a gate message names: the "directive(s) … require" list first, then any UUID or KD-0001-style id. */
export function parseDirectiveIds(message: string): string[] {
  const ids: string[] = [];
  const add = (id: string) => {
    if (ids.length < MAX_IDS && !ids.includes(id)) ids.push(id);
  };
  const list = DIRECTIVE_LIST_RE.exec(message);
  if (list?.[1]) {
    for (const token of list[1].split(/,\s*|\s+/)) {
      if (LIST_TOKEN_RE.test(token) && /\d/.test(token)) add(token);
    }
  }
  for (const m of message.matchAll(UUID_RE)) add(m[0]);
  for (const m of message.matchAll(SHORT_ID_RE)) add(m[0]);
  return ids;
}

type AckVerb = 'APPLIED' | 'IGNORED' | 'VIOLATED' | 'N_A';
const ACK_RE = /KNOWLEDGE_(APPLIED|IGNORED|VIOLATED|N_A)\s*:\s*([A-Za-z0-9][A-Za-z0-9_-]{1,63})/g;

/** Acknowledgement markers (`KNOWLEDGE_APPLIED:<id>` …) in text an agent wrote or sent as tool arguments. */
export function parseAckMarkers(text: string): { verb: AckVerb; id: string }[] {
  const out: { verb: AckVerb; id: string }[] = [];
  for (const m of text.slice(0, MAX_OUTPUT_SCAN).matchAll(ACK_RE)) out.push({ verb: m[1] as AckVerb, id: m[2] as string });
  return out;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export function previewJson(value: unknown, max = MAX_INPUT_CHARS): string | null {
  if (value === undefined) return null;
  let text: string;
  try {
    text = JSON.stringify(value) ?? 'null';
  } catch {
    return null;
  }
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

export function capText(text: string, max = MAX_MESSAGE_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** The PHASE_COMPLETE_BLOCKED verdict inside a completed tool's output, if any. */
function findPhaseBlock(output: string): { message: string; code: string | null } | null {
  const head = output.slice(0, MAX_OUTPUT_SCAN);
  const at = head.indexOf(PHASE_COMPLETE_BLOCKED);
  if (at < 0) return null;
  const code = PHASE_BLOCK_REASONS.find((reason) => head.includes(reason)) ?? null;
  let message: string | null = null;
  try {
    const parsed: unknown = JSON.parse(head);
    const stack: unknown[] = [parsed];
    while (stack.length && !message) {
      const value = stack.pop();
      if (typeof value === 'string' && value.includes(PHASE_COMPLETE_BLOCKED)) message = value.slice(value.indexOf(PHASE_COMPLETE_BLOCKED));
      else if (Array.isArray(value)) stack.push(...value);
      else if (isRecord(value)) stack.push(...Object.values(value));
    }
  } catch {
    // not JSON: take the line that carries the verdict
  }
  if (!message) {
    const end = head.indexOf('\n', at);
    message = head.slice(at, end < 0 ? undefined : end);
  }
  return { message: capText(message), code };
}

/**
 * Classifies one message part as the server reports it (`message.part.updated` → `properties.part`,
 * or the `data.part` of its stored copy). Returns null for anything that is not a gate's refusal:
 * text parts, running or successful tool calls, and tool errors without a swarm prefix.
 */
export function classifyToolPart(part: unknown, eventTime: number | null = null): ClassifiedBlock | null {
  if (!isRecord(part) || part.type !== 'tool' || !isRecord(part.state)) return null;
  const state = part.state;
  const base = () => {
    const time = isRecord(state.time) ? num(state.time.end) ?? num(state.time.start) : null;
    return {
      sessionID: str(part.sessionID) ?? '',
      messageID: str(part.messageID) ?? '',
      partID: str(part.id) ?? '',
      callID: str(part.callID) ?? '',
      tool: str(part.tool) ?? '',
      time: time ?? eventTime ?? Date.now(),
      input: previewJson(state.input),
    };
  };
  if (state.status === 'error') {
    const errorText = str(state.error);
    if (!errorText) return null;
    const match = matchGatePrefix(errorText);
    if (!match) return null;
    const message = capText(match.message);
    return { kind: 'denial', gate: match.gate, code: match.code, ...base(), directiveIds: parseDirectiveIds(message), message };
  }
  if (state.status === 'completed') {
    const output = str(state.output);
    if (!output) return null;
    const block = findPhaseBlock(output);
    if (!block) return null;
    return {
      kind: 'block',
      gate: PHASE_COMPLETE_BLOCKED,
      code: block.code,
      ...base(),
      directiveIds: parseDirectiveIds(block.message),
      message: block.message,
    };
  }
  return null;
}
