import { z } from 'zod';
import { command, NoInput, query, subscription } from './define';

/** Operations of the live area (issue 6): OpenCode servers, their sessions, and the gate-denial feed. */

const Id = z.string().min(1).max(256);
const Text = (max: number) => z.string().max(max);

/** How the console's link to one `opencode serve` stands. `since` is when this state began (epoch ms). */
export const ConnectionState = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('connecting'), since: z.number() }),
  z.object({ kind: z.literal('connected'), since: z.number() }),
  /** The stream is open but nothing (not even the 10 s heartbeat) arrived since `lastEventAt`. */
  z.object({ kind: z.literal('silent'), since: z.number(), lastEventAt: z.number() }),
  z.object({ kind: z.literal('reconnecting'), since: z.number(), attempt: z.number(), reason: z.string(), nextAttemptAt: z.number() }),
  z.object({ kind: z.literal('unreachable'), since: z.number(), attempt: z.number(), reason: z.string(), nextAttemptAt: z.number() }),
  z.object({ kind: z.literal('unauthorised'), since: z.number(), reason: z.string() }),
  /** The server answered with more than the console reads (e.g. "history response over 64 MB"); not retried. */
  z.object({ kind: z.literal('refused'), since: z.number(), reason: z.string() }),
  z.object({ kind: z.literal('stopped'), since: z.number() }),
]);
export type ConnectionState = z.infer<typeof ConnectionState>;

/** Events the bridge skipped instead of crashing on. */
export const StreamWarnings = z.object({
  invalidJson: z.number(),
  unknownType: z.number(),
  oversized: z.number(),
  malformed: z.number(),
  lastWarning: z.string().nullable(),
});
export type StreamWarnings = z.infer<typeof StreamWarnings>;

export const ServerInfo = z.object({
  id: z.string(),
  url: z.string(),
  label: z.string(),
  /** Whether a password is held in main. The password itself never leaves main. */
  hasPassword: z.boolean(),
  state: ConnectionState,
  version: z.string().nullable(),
  sessionCount: z.number(),
  lastEventAt: z.number().nullable(),
  warnings: StreamWarnings,
});
export type ServerInfo = z.infer<typeof ServerInfo>;

export const SessionInfo = z.object({
  id: z.string(),
  serverId: z.string(),
  directory: z.string().nullable(),
  projectID: z.string().nullable(),
  title: z.string(),
  agent: z.string().nullable(),
  /** idle also when `/session/status` leaves the session out: OpenCode lists only busy and retrying sessions there. */
  status: z.enum(['idle', 'busy', 'retry', 'unknown']),
  updatedAt: z.number().nullable(),
  denials: z.number(),
  /** The session runs outside the open project's folder (listed only with `scope: "all"`). */
  otherProject: z.boolean().default(false),
});
export type SessionInfo = z.infer<typeof SessionInfo>;

const FeedSource = z.enum(['opencode', 'events']);
type FeedSource = z.infer<typeof FeedSource>;

/** denial: a thrown gate error; block: a refusal inside a completed result; warn / clear: events.jsonl gate events. */
export const FeedKind = z.enum(['denial', 'block', 'warn', 'clear']);
export type FeedKind = z.infer<typeof FeedKind>;

const FollowUpOutcome = z.enum(['pending', 'retried_ok', 'retried_denied', 'gave_up']);
type FollowUpOutcome = z.infer<typeof FollowUpOutcome>;

/** What the session did after a denial: answered (a KNOWLEDGE_* marker) and retried, or gave up. */
export const FollowUp = z.object({
  outcome: FollowUpOutcome,
  /** Answer markers the agent wrote afterwards, e.g. `APPLIED:KD-0001` (answers, not the plugin's acknowledged_count; the field keeps its name). */
  acknowledged: z.array(z.string()),
  actions: z.array(z.object({ time: z.number(), kind: z.enum(['ack', 'retry_ok', 'retry_denied', 'other_tool', 'turn_end']), text: z.string() })),
});
export type FollowUp = z.infer<typeof FollowUp>;

const ExtraValue = z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.string())]);

export const FeedItem = z.object({
  id: z.string(),
  kind: FeedKind,
  /** Where the item was first seen; `sources` lists every source that reported it (a merged denial has both). */
  source: FeedSource,
  sources: z.array(FeedSource),
  time: z.number(),
  serverId: z.string().nullable(),
  directory: z.string().nullable(),
  projectID: z.string().nullable(),
  sessionID: z.string().nullable(),
  messageID: z.string().nullable(),
  callID: z.string().nullable(),
  agent: z.string().nullable(),
  tool: z.string().nullable(),
  /** The denial prefix without its colon (e.g. KNOWLEDGE_ENFORCE_GATE_DENY), or the events.jsonl event name. */
  gate: z.string(),
  code: z.string().nullable(),
  directiveIds: z.array(z.string()),
  message: z.string(),
  input: z.string().nullable(),
  /** Caught up through /sync/history rather than seen live. */
  replayed: z.boolean(),
  followUp: FollowUp.nullable(),
  /** Other fields of an events.jsonl line (denial_count, trace_ids, …). */
  extra: z.record(z.string(), ExtraValue),
});
export type FeedItem = z.infer<typeof FeedItem>;

export const FeedFilter = z
  .object({
    project: Text(4096).optional(),
    serverId: Id.optional(),
    sessionID: Id.optional(),
    tool: Text(256).optional(),
    directiveId: Text(256).optional(),
    gate: Text(256).optional(),
    kind: FeedKind.optional(),
    text: Text(500).optional(),
  })
  .strict();
export type FeedFilter = z.infer<typeof FeedFilter>;

const FeedCursor = z.object({ time: z.number(), id: Id }).strict();

export const RepeatRule = z
  .object({
    enabled: z.boolean(),
    /** N denials of the same tool by one directive … */
    threshold: z.number().int().min(2).max(1000),
    /** … within this many minutes. */
    windowMinutes: z.number().int().min(1).max(24 * 60),
  })
  .strict();
export type RepeatRule = z.infer<typeof RepeatRule>;

export const RepeatAlert = z.object({
  directiveId: z.string(),
  tool: z.string(),
  count: z.number(),
  windowMinutes: z.number(),
  itemId: z.string(),
  sessionIDs: z.array(z.string()),
  time: z.number(),
});
export type RepeatAlert = z.infer<typeof RepeatAlert>;

export const DirectiveCounter = z.object({
  directiveId: z.string(),
  lastHour: z.number(),
  lastDay: z.number(),
  total: z.number(),
  lastTime: z.number(),
  tools: z.array(z.object({ tool: z.string(), count: z.number() })),
});
export type DirectiveCounter = z.infer<typeof DirectiveCounter>;

export const LiveEvent = z.discriminatedUnion('type', [
  /** New or changed feed items (a follow-up, a merge with the other source). */
  z.object({ type: z.literal('items'), items: z.array(FeedItem) }),
  /** Items absorbed into another one (an events.jsonl deny merged into its live denial). */
  z.object({ type: z.literal('removed'), ids: z.array(z.string()) }),
  z.object({ type: z.literal('server'), server: ServerInfo }),
  z.object({ type: z.literal('server-removed'), serverId: z.string() }),
  z.object({ type: z.literal('sessions'), serverId: z.string() }),
  z.object({ type: z.literal('repeat'), alert: RepeatAlert }),
]);
export type LiveEvent = z.infer<typeof LiveEvent>;

const ConnectInput = z
  .object({
    url: z
      .string()
      .min(1)
      .max(2048)
      .refine((u) => /^https?:\/\/[^\s/]+/i.test(u), 'must be an http:// or https:// URL'),
    password: z.string().max(1024).optional(),
    label: z.string().max(200).optional(),
  })
  .strict();

export const liveOps = {
  'live.connect': command('Connect to an `opencode serve` (URL, optional password kept in main only).', ConnectInput, ServerInfo),
  'live.disconnect': command('Stop following one server.', z.object({ serverId: Id }).strict(), z.object({ removed: z.boolean() })),
  'live.servers': query('Connected servers and the state of each link.', NoInput, z.array(ServerInfo)),
  'live.sessions': query(
    'Sessions the servers know, with project directory, agent and status.',
    z
      .object({
        serverId: Id.optional(),
        project: Text(4096).optional(),
        limit: z.number().int().min(1).max(2000).default(500),
        /** project: only sessions in the open project's folder; all: every session, those elsewhere marked otherProject. */
        scope: z.enum(['project', 'all']).default('project'),
      })
      .strict(),
    z.array(SessionInfo),
  ),
  'live.feed': query(
    'Denials and gate events, newest first, paged and filtered.',
    z.object({ filter: FeedFilter.default({}), before: FeedCursor.optional(), limit: z.number().int().min(1).max(500).default(100) }).strict(),
    z.object({ items: z.array(FeedItem), nextCursor: FeedCursor.nullable() }),
  ),
  'live.facets': query(
    'Distinct values for the feed filters.',
    NoInput,
    z.object({
      projects: z.array(z.string()),
      tools: z.array(z.string()),
      gates: z.array(z.string()),
      directives: z.array(z.string()),
      sessions: z.array(z.string()),
    }),
  ),
  'live.counters': query(
    'Denials per directive in the last hour and day.',
    z.object({ project: Text(4096).optional(), limit: z.number().int().min(1).max(500).default(50) }).strict(),
    z.array(DirectiveCounter),
  ),
  'live.rules': query('The repeated-denial notification rule.', NoInput, RepeatRule),
  'live.setRules': command('Change the repeated-denial notification rule.', RepeatRule, RepeatRule),
  'live.events': subscription('Feed items, server states and repeat alerts as they happen.', NoInput, LiveEvent),
} as const;
