import type { FollowUp } from '../../../shared/contract/live';
import { parseAckMarkers, previewJson } from './classifier';

/**
 * What a session did after a denial. OpenCode turns a thrown denial into the tool result and the
 * model carries on, so "what next" is read from the session's later parts: acknowledgement markers,
 * a retry of the same tool (allowed or denied again), other tools, and the end of the turn
 * (assistant message finished with "stop") without a successful retry, which counts as giving up.
 * A later successful retry still upgrades a "gave up".
 */
interface OpenDenial {
  itemId: string;
  tool: string;
  time: number;
  partID: string;
  followUp: FollowUp;
  seenParts: Set<string>;
}

const MAX_SESSIONS = 500;
const MAX_OPEN_PER_SESSION = 8;
const MAX_ACTIONS = 20;
const FOLLOW_FOR_MS = 60 * 60 * 1000;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export class FollowUpTracker {
  private readonly sessions = new Map<string, OpenDenial[]>();

  constructor(private readonly onChange: (itemId: string, followUp: FollowUp) => void) {}

  /** A new denial: returns its initial follow-up, and counts it as a denied retry for earlier ones. */
  denial(sessionID: string, itemId: string, tool: string, partID: string, time: number): FollowUp {
    const open = this.openFor(sessionID, time);
    for (const earlier of open) {
      if (earlier.itemId === itemId) return earlier.followUp;
      if (earlier.tool === tool && !earlier.seenParts.has(partID)) {
        this.act(earlier, partID, { time, kind: 'retry_denied', text: `${tool} denied again` }, (f) => {
          if (f.outcome !== 'retried_ok') f.outcome = 'retried_denied';
        });
      }
    }
    const followUp: FollowUp = { outcome: 'pending', acknowledged: [], actions: [] };
    open.push({ itemId, tool, time, partID, followUp, seenParts: new Set([partID]) });
    if (open.length > MAX_OPEN_PER_SESSION) open.shift();
    return followUp;
  }

  /** Any later part of the session (tool calls, text). Denials go through `denial` instead. */
  part(sessionID: string, part: unknown, time: number): void {
    const open = this.sessions.get(sessionID);
    if (!open?.length || !isRecord(part)) return;
    const partID = typeof part.id === 'string' ? part.id : '';
    if (part.type === 'text' && typeof part.text === 'string') {
      this.acks(open, part.text, time);
      return;
    }
    if (part.type !== 'tool' || !isRecord(part.state)) return;
    const state = part.state;
    this.acks(open, previewJson(state.input, 8_000) ?? '', time);
    if (state.status !== 'completed' && state.status !== 'error') return;
    const tool = typeof part.tool === 'string' ? part.tool : '?';
    for (const denial of open) {
      if (denial.seenParts.has(partID) || time < denial.time) continue;
      if (denial.tool === tool && state.status === 'completed') {
        this.act(denial, partID, { time, kind: 'retry_ok', text: `${tool} ran after the denial` }, (f) => (f.outcome = 'retried_ok'));
      } else if (denial.tool !== tool) {
        this.act(denial, partID, { time, kind: 'other_tool', text: `${tool} ${state.status}` }, () => {});
      }
    }
  }

  /** The assistant finished its turn ("stop"): without a successful retry the agent gave up. */
  turnEnd(sessionID: string, time: number, messageID: string): void {
    const open = this.sessions.get(sessionID);
    if (!open?.length) return;
    for (const denial of open) {
      if (time < denial.time || denial.seenParts.has(`turn:${messageID}`)) continue;
      this.act(denial, `turn:${messageID}`, { time, kind: 'turn_end', text: 'turn ended' }, (f) => {
        if (f.outcome === 'pending') f.outcome = 'gave_up';
      });
    }
  }

  private acks(open: OpenDenial[], text: string, time: number): void {
    if (!text.includes('KNOWLEDGE_')) return;
    const markers = parseAckMarkers(text).map((m) => `${m.verb}:${m.id}`);
    for (const denial of open) {
      const fresh = markers.filter((m) => !denial.followUp.acknowledged.includes(m));
      if (!fresh.length || time < denial.time) continue;
      denial.followUp.acknowledged.push(...fresh);
      if (denial.followUp.actions.length < MAX_ACTIONS) denial.followUp.actions.push({ time, kind: 'ack', text: fresh.join(', ') });
      this.onChange(denial.itemId, structuredClone(denial.followUp));
    }
  }

  private act(denial: OpenDenial, key: string, action: FollowUp['actions'][number], apply: (f: FollowUp) => void): void {
    denial.seenParts.add(key);
    apply(denial.followUp);
    if (denial.followUp.actions.length < MAX_ACTIONS) denial.followUp.actions.push(action);
    this.onChange(denial.itemId, structuredClone(denial.followUp));
  }

  private openFor(sessionID: string, now: number): OpenDenial[] {
    let open = this.sessions.get(sessionID);
    if (open) {
      this.sessions.delete(sessionID); // re-insert: the map's order is least recently used first
      open = open.filter((d) => now - d.time < FOLLOW_FOR_MS);
    } else {
      open = [];
    }
    this.sessions.set(sessionID, open);
    if (this.sessions.size > MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value as string);
    return open;
  }
}
