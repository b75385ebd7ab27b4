import type { FeedItem, FollowUp, SessionInfo, StreamWarnings } from '../../../shared/contract/live';
import { classifyToolPart, type ClassifiedBlock } from './classifier';
import { DURABLE_EVENT_TYPES, KNOWN_EVENT_TYPES } from './event-types';
import { FollowUpTracker } from './follow-up';
import type { HistoryEvent, SessionRecord, SessionStatusMap } from './opencode-api';

/**
 * Turns what one OpenCode server says (the /global/event stream and /sync/history pages) into feed
 * items. Stored events arrive twice on the stream (plain and wrapped as `sync` with a per-session
 * `seq`); only the `sync` copy is used, so each is seen once and the last seq per session is known.
 * A seq that skips ahead means something was missed: the processor asks for a catch-up and lets
 * /sync/history deliver it in order. Nothing here throws on bad input; it counts and skips.
 */
interface ProcessorSink {
  item(item: FeedItem): void;
  followUp(itemId: string, followUp: FollowUp): void;
  sessionsChanged(): void;
  /** A gap in some session's seq: the connection should call /sync/history. */
  gap(): void;
  /** Any message at all arrived (heartbeats included). */
  alive(): void;
}

interface DurableEvent {
  type: string;
  seq: number;
  sessionID: string;
  data: Record<string, unknown>;
}

interface SessionState {
  directory: string | null;
  projectID: string | null;
  title: string;
  agent: string | null;
  status: SessionInfo['status'];
  updatedAt: number | null;
}

const MAX_MESSAGE_AGENTS = 5_000;
const MAX_HELD = 20_000;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function emptyWarnings(): StreamWarnings {
  return { invalidJson: 0, unknownType: 0, oversized: 0, malformed: 0, lastWarning: null };
}

export class EventProcessor {
  readonly warnings: StreamWarnings = emptyWarnings();
  readonly sessions = new Map<string, SessionState>();
  private readonly seqs: Map<string, number>;
  private readonly dirtySeqs = new Set<string>();
  private readonly messageAgents = new Map<string, string>();
  private readonly followUps: FollowUpTracker;
  /** While a catch-up runs, live stored events wait here and are replayed after it (duplicates then drop by seq). */
  private held: { event: DurableEvent; directory: string | null; projectID: string | null }[] | null = null;
  private heldOverflow = false;
  private readonly askedHoles = new Map<string, number>();

  constructor(
    readonly serverId: string,
    private readonly sink: ProcessorSink,
    initialSeqs: Map<string, number> = new Map(),
  ) {
    this.seqs = new Map(initialSeqs);
    this.followUps = new FollowUpTracker((itemId, followUp) => sink.followUp(itemId, followUp));
  }

  warn(kind: Exclude<keyof StreamWarnings, 'lastWarning'>, detail: string): void {
    this.warnings[kind]++;
    this.warnings.lastWarning = `${kind}: ${detail}`.slice(0, 300);
  }

  lastSeqs(): Record<string, number> {
    return Object.fromEntries(this.seqs);
  }

  /** Seqs changed since the last call, for persistence. */
  takeDirtySeqs(): [string, number][] {
    const out: [string, number][] = [];
    for (const id of this.dirtySeqs) out.push([id, this.seqs.get(id) as number]);
    this.dirtySeqs.clear();
    return out;
  }

  // ---- the live stream ----

  handleMessage(data: string): void {
    this.sink.alive();
    let envelope: unknown;
    try {
      envelope = JSON.parse(data);
    } catch {
      this.warn('invalidJson', data.slice(0, 80));
      return;
    }
    if (!isRecord(envelope) || !isRecord(envelope.payload) || typeof envelope.payload.type !== 'string') {
      this.warn('malformed', 'event without payload.type');
      return;
    }
    const directory = str(envelope.directory);
    const dir = directory && directory !== 'global' ? directory : null;
    const projectID = str(envelope.project);
    const payload = envelope.payload;
    const type = payload.type as string;
    if (!KNOWN_EVENT_TYPES.has(type)) {
      this.warn('unknownType', type.slice(0, 80));
      return;
    }
    if (type === 'sync') {
      const sync = payload.syncEvent;
      const event = isRecord(sync) ? this.durable(sync.type, sync.seq, sync.aggregateID, sync.data) : null;
      if (!event) {
        this.warn('malformed', 'sync event without type/seq/aggregateID/data');
        return;
      }
      this.live(event, dir, projectID === 'global' ? null : projectID);
      return;
    }
    if (DURABLE_EVENT_TYPES.has(type)) return; // the `sync` copy carries the same event with its seq
    const props = isRecord(payload.properties) ? payload.properties : {};
    if (type === 'session.status') {
      const sessionID = str(props.sessionID);
      const status = isRecord(props.status) ? str(props.status.type) : null;
      if (sessionID) this.setStatus(sessionID, status);
    } else if (type === 'session.idle') {
      const sessionID = str(props.sessionID);
      if (sessionID) this.setStatus(sessionID, 'idle');
    } else if (type === 'session.deleted') {
      const sessionID = str(props.sessionID);
      if (sessionID && this.sessions.delete(sessionID)) this.sink.sessionsChanged();
    }
  }

  private durable(type: unknown, seq: unknown, sessionID: unknown, data: unknown): DurableEvent | null {
    if (typeof type !== 'string' || typeof seq !== 'number' || !Number.isInteger(seq) || typeof sessionID !== 'string' || !isRecord(data)) return null;
    return { type, seq, sessionID, data };
  }

  private live(event: DurableEvent, directory: string | null, projectID: string | null): void {
    if (this.held) {
      if (this.held.length < MAX_HELD) this.held.push({ event, directory, projectID });
      else this.heldOverflow = true;
      return;
    }
    const last = this.seqs.get(event.sessionID);
    if (last !== undefined && event.seq <= last) return; // already seen (stream + catch-up overlap)
    if (this.isGap(event, last)) {
      this.sink.gap(); // /sync/history will deliver this one and what came before it
      return;
    }
    this.apply(event, directory, projectID, false);
  }

  /**
   * A seq beyond last + 1. Asked once per hole: if a catch-up could not fill it (the server no longer
   * has those events), the next event is taken anyway rather than asking for ever.
   */
  private isGap(event: DurableEvent, last: number | undefined): boolean {
    const expected = last === undefined ? 0 : last + 1;
    if (event.seq <= expected) return false;
    if (this.askedHoles.get(event.sessionID) === expected) {
      this.askedHoles.delete(event.sessionID);
      this.warn('malformed', `seq hole in ${event.sessionID.slice(0, 40)}: ${expected}..${event.seq - 1} not in history`);
      return false;
    }
    this.askedHoles.set(event.sessionID, expected);
    return true;
  }

  // ---- catch-up ----

  /** Hold live stored events until `finishCatchUp`. */
  beginCatchUp(): void {
    this.held ??= [];
  }

  handleHistory(events: HistoryEvent[]): void {
    const parsed: DurableEvent[] = [];
    for (const raw of events) {
      const event = isRecord(raw) ? this.durable(raw.type, raw.seq, raw.aggregate_id, raw.data) : null;
      if (event) parsed.push(event);
      else this.warn('malformed', 'history item without type/seq/aggregate_id/data');
    }
    parsed.sort((a, b) => (a.sessionID === b.sessionID ? a.seq - b.seq : 0));
    for (const event of parsed) {
      const last = this.seqs.get(event.sessionID);
      if (last !== undefined && event.seq <= last) continue;
      const session = this.sessions.get(event.sessionID);
      this.apply(event, session?.directory ?? null, session?.projectID ?? null, true);
    }
  }

  /** Replays what the stream delivered meanwhile; returns true if another catch-up is needed. */
  finishCatchUp(): boolean {
    const held = this.held ?? [];
    const overflow = this.heldOverflow;
    this.held = null;
    this.heldOverflow = false;
    let gap = overflow;
    for (const { event, directory, projectID } of held) {
      const last = this.seqs.get(event.sessionID);
      if (last !== undefined && event.seq <= last) continue;
      if (this.isGap(event, last)) {
        gap = true;
        continue;
      }
      this.apply(event, directory, projectID, false);
    }
    return gap;
  }

  /** After a failed catch-up: drop what was held; the next catch-up fetches it again. */
  abandonCatchUp(): void {
    this.held = null;
    this.heldOverflow = false;
  }

  // ---- sessions from REST ----

  mergeSessions(records: SessionRecord[], statuses: SessionStatusMap): void {
    for (const record of records) {
      if (!isRecord(record) || typeof record.id !== 'string') continue;
      this.upsertSession(record.id, record as unknown as Record<string, unknown>);
    }
    const listed = statuses ?? {};
    for (const [id, status] of Object.entries(listed)) this.setStatus(id, isRecord(status) ? str(status.type) : null, false);
    // `/session/status` lists busy and retrying sessions only (docs/plugin-formats.md#opencode-event-stream): a
    // session it leaves out is idle, not unknown.
    for (const record of records) if (isRecord(record) && typeof record.id === 'string' && !Object.hasOwn(listed, record.id)) this.setStatus(record.id, 'idle', false);
    this.sink.sessionsChanged();
  }

  sessionInfos(): SessionInfo[] {
    return [...this.sessions].map(([id, s]) => ({ id, serverId: this.serverId, ...s, denials: 0, otherProject: false }));
  }

  // ---- applying one stored event ----

  private apply(event: DurableEvent, directory: string | null, projectID: string | null, replayed: boolean): void {
    this.seqs.set(event.sessionID, event.seq);
    this.dirtySeqs.add(event.sessionID);
    const hole = this.askedHoles.get(event.sessionID);
    if (hole !== undefined && hole <= event.seq) this.askedHoles.delete(event.sessionID);
    const { data } = event;
    const kind = event.type.replace(/\.\d+$/, '');
    if (kind === 'session.created' || kind === 'session.updated') {
      if (isRecord(data.info)) this.upsertSession(event.sessionID, data.info, directory, projectID);
      return;
    }
    if (kind === 'message.updated') {
      const info = data.info;
      if (!isRecord(info)) return;
      const messageID = str(info.id);
      const agent = str(info.agent) ?? str(info.mode);
      if (messageID && agent) this.rememberAgent(messageID, agent);
      if (info.role === 'assistant' && info.finish === 'stop' && messageID) {
        const completed = isRecord(info.time) ? info.time.completed ?? info.time.created : null;
        this.followUps.turnEnd(event.sessionID, typeof completed === 'number' ? completed : Date.now(), messageID);
      }
      return;
    }
    if (kind !== 'message.part.updated') return;
    const part = data.part;
    const eventTime = typeof data.time === 'number' ? data.time : null;
    const block = classifyToolPart(part, eventTime);
    if (!block) {
      this.followUps.part(event.sessionID, part, eventTime ?? Date.now());
      return;
    }
    this.sink.item(this.toItem(block, event.sessionID, directory, projectID, replayed));
  }

  private toItem(block: ClassifiedBlock, sessionID: string, directory: string | null, projectID: string | null, replayed: boolean): FeedItem {
    const session = this.sessions.get(sessionID);
    const id = `oc:${block.sessionID || sessionID}:${block.partID || block.callID}`;
    const followUp = this.followUps.denial(sessionID, id, block.tool, block.partID, block.time);
    return {
      id,
      kind: block.kind,
      source: 'opencode',
      sources: ['opencode'],
      time: block.time,
      serverId: this.serverId,
      directory: directory ?? session?.directory ?? null,
      projectID: projectID ?? session?.projectID ?? null,
      sessionID: block.sessionID || sessionID,
      messageID: block.messageID || null,
      callID: block.callID || null,
      agent: this.messageAgents.get(block.messageID) ?? session?.agent ?? null,
      tool: block.tool || null,
      gate: block.gate,
      code: block.code,
      directiveIds: block.directiveIds,
      message: block.message,
      input: block.input,
      replayed,
      followUp: structuredClone(followUp),
      extra: {},
    };
  }

  private rememberAgent(messageID: string, agent: string): void {
    this.messageAgents.delete(messageID);
    this.messageAgents.set(messageID, agent);
    if (this.messageAgents.size > MAX_MESSAGE_AGENTS) this.messageAgents.delete(this.messageAgents.keys().next().value as string);
  }

  private upsertSession(id: string, info: Record<string, unknown>, directory: string | null = null, projectID: string | null = null): void {
    const existing = this.sessions.get(id);
    const time = isRecord(info.time) ? info.time : {};
    const updated = typeof time.updated === 'number' ? time.updated : typeof time.created === 'number' ? time.created : null;
    const project = str(info.projectID) ?? projectID ?? existing?.projectID ?? null;
    this.sessions.set(id, {
      directory: str(info.directory) ?? directory ?? existing?.directory ?? null,
      projectID: project === 'global' ? null : project,
      title: (str(info.title) ?? existing?.title ?? '').slice(0, 500),
      agent: str(info.agent) ?? existing?.agent ?? null,
      status: existing?.status ?? 'unknown',
      updatedAt: updated ?? existing?.updatedAt ?? null,
    });
    this.sink.sessionsChanged();
  }

  private setStatus(id: string, status: string | null, notify = true): void {
    const value: SessionInfo['status'] = status === 'idle' || status === 'busy' || status === 'retry' ? status : 'unknown';
    const session = this.sessions.get(id) ?? { directory: null, projectID: null, title: '', agent: null, status: 'unknown' as const, updatedAt: null };
    if (session.status === value && this.sessions.has(id)) return;
    this.sessions.set(id, { ...session, status: value, updatedAt: Date.now() });
    if (notify) this.sink.sessionsChanged();
  }
}
