import { z } from 'zod';
import { NoInput, query, revealCommand, subscription } from './define';

/**
 * Operations of the stores area (issue 3): what every opencode-swarm store holds, read exactly
 * and indexed, with its defects; paged/sorted/filtered lists for any store, knowledge entries
 * with facets and full-text search, events, and live change events. All paging is server-side.
 */

const StoreKey = z.string().min(1).max(80).regex(/^[a-z0-9:._-]+$/, 'expected a store key');
const Tier = z.enum(['swarm', 'hive', 'link']);
const SortDir = z.enum(['asc', 'desc']);
const Offset = z.number().int().min(0).max(100_000_000).default(0);
const Limit = (max: number, fallback: number) => z.number().int().min(1).max(max).default(fallback);
const ShortText = z.string().max(200);
const Values = z.array(z.string().max(200)).max(50);
const JsonObject = z.record(z.string(), z.unknown());

const DefectKind = z.enum(['invalid_json', 'not_object', 'invalid_utf8', 'line_too_long', 'incomplete_tail', 'schema', 'unknown_enum', 'duplicate_id', 'unreadable']);

const StoreFileSummary = z.object({
  name: z.string(),
  path: z.string(),
  /** ok | missing | not_a_file | unreadable */
  status: z.string(),
  message: z.string().nullable(),
  lines: z.number().int(),
  records: z.number().int(),
  defects: z.number().int(),
  size: z.number().nullable(),
  pendingTail: z.boolean(),
  orphaned: z.boolean(),
  symlinkTarget: z.string().nullable(),
});

/** A store the plugin (7.162+) moved into SQLite: its JSONL renamed `<file>.imported`, a cold archive. */
export const ImportedArchive = z.object({
  storeKey: z.string().nullable(),
  label: z.string(),
  path: z.string(),
  name: z.string(),
  archivedAt: z.string(),
  liveFileExists: z.boolean(),
  /** "this project's plugin keeps <store> in swarm.db since …; the console shows the archived JSONL as of then". */
  notice: z.string(),
});
export type ImportedArchive = z.infer<typeof ImportedArchive>;

/** What the console could see of `.swarm/swarm.db` (read-only; never written). */
export const SwarmDbProbe = z.object({
  path: z.string(),
  state: z.enum(['ok', 'busy', 'unreadable']),
  problem: z.string().nullable(),
  size: z.number(),
  modifiedAt: z.string(),
  userVersion: z.number().nullable(),
  migrations: z.object({ table: z.string(), rows: z.number(), latest: z.string().nullable() }).nullable(),
  /** Tables named like a store family the console reads: not read yet (their layout is not known). */
  storeTables: z.array(z.object({ name: z.string(), rows: z.number().nullable(), storeKey: z.string() })),
  tableCount: z.number().nullable(),
});
export type SwarmDbProbe = z.infer<typeof SwarmDbProbe>;

/** Signs of a newer plugin that keeps stores in SQLite; `notices` are the lines to show (status bar, inspect). */
export const PluginUpgrade = z.object({
  swarmDb: SwarmDbProbe.nullable(),
  archives: z.array(ImportedArchive),
  notices: z.array(z.string()),
});
export type PluginUpgrade = z.infer<typeof PluginUpgrade>;

export const StoreSummary = z.object({
  key: z.string(),
  label: z.string(),
  tier: Tier,
  format: z.enum(['jsonl', 'json', 'markdown', 'text']),
  table: z.enum(['entries', 'events', 'receipts', 'records']).nullable(),
  /** snapshot: the released plugin writes it; proposed: a format agreed ahead of upstream; legacy: migration input. */
  provenance: z.enum(['snapshot', 'proposed', 'legacy']),
  /** Root-relative file (pattern for multi-file stores), e.g. `.swarm/knowledge.jsonl`. */
  pattern: z.string(),
  rootDir: z.string(),
  exists: z.boolean(),
  files: z.array(StoreFileSummary),
  lines: z.number().int(),
  records: z.number().int(),
  defects: z.number().int(),
  status: z.enum(['ok', 'missing', 'defects', 'unreadable', 'not_a_file', 'orphaned']),
  message: z.string(),
  /** Set when the plugin imported this store into swarm.db and renamed its JSONL `<file>.imported` (read as the store it was). */
  imported: ImportedArchive.nullable().optional(),
});
export type StoreSummary = z.infer<typeof StoreSummary>;

const StoresSummary = z.object({
  project: z.string(),
  hive: z.string(),
  swarmDirExists: z.boolean(),
  link: z.object({ linkId: z.string().nullable(), dir: z.string().nullable(), problem: z.string().nullable(), orphanedLocalFiles: z.array(z.string()) }).nullable(),
  index: z.object({ file: z.string(), rebuiltBecause: z.string().nullable() }),
  stores: z.array(StoreSummary),
  upgrade: PluginUpgrade.optional(),
});

const DefectItem = z.object({
  store: z.string(),
  file: z.string(),
  path: z.string(),
  line: z.number().int(),
  offset: z.number().int(),
  kind: DefectKind,
  reason: z.string(),
});

export const DefectsInput = z
  .object({ store: StoreKey.optional(), kind: DefectKind.optional(), offset: Offset, limit: Limit(500, 100) })
  .strict();
export const DefectsPage = z.object({ total: z.number().int(), items: z.array(DefectItem) });

export const RecordsInput = z
  .object({
    store: StoreKey,
    offset: Offset,
    limit: Limit(500, 50),
    sort: z.object({ field: z.enum(['line', 'ts', 'id', 'kind']), dir: SortDir }).strict().default({ field: 'line', dir: 'asc' }),
    filter: z
      .object({ text: ShortText.optional(), id: ShortText.optional(), kind: Values.optional(), flaggedOnly: z.boolean().optional() })
      .strict()
      .default({}),
  })
  .strict();
const RecordItem = z.object({
  rid: z.number().int(),
  store: z.string(),
  file: z.string(),
  line: z.number().int(),
  offset: z.number().int(),
  id: z.string().nullable(),
  kind: z.string().nullable(),
  ts: z.string().nullable(),
  flagged: z.boolean(),
  record: JsonObject,
});
export const RecordsPage = z.object({ total: z.number().int(), items: z.array(RecordItem) });

const Facet = z.array(z.object({ value: z.string().nullable(), count: z.number().int() }));
export const ENTRY_FACETS = ['status', 'category', 'tier', 'priority', 'scope', 'tags', 'project', 'collection'] as const;

export const EntriesInput = z
  .object({
    offset: Offset,
    limit: Limit(500, 50),
    sort: z
      .object({
        field: z.enum(['updated_at', 'created_at', 'confidence', 'priority', 'status', 'category', 'tier', 'lesson', 'shown_count', 'encounter_score', 'phases_alive', 'relevance']),
        dir: SortDir,
      })
      .strict()
      .default({ field: 'updated_at', dir: 'desc' }),
    filter: z
      .object({
        text: ShortText.optional(),
        id: ShortText.optional(),
        tier: z.array(Tier).max(3).optional(),
        collection: z.array(z.enum(['active', 'rejected', 'quarantined', 'unactionable'])).max(4).optional(),
        store: z.array(StoreKey).max(20).optional(),
        status: Values.optional(),
        category: Values.optional(),
        priority: Values.optional(),
        scope: Values.optional(),
        /** Every listed tag must be present. */
        tags: Values.optional(),
        project: Values.optional(),
        minConfidence: z.number().min(0).max(1).optional(),
        maxConfidence: z.number().min(0).max(1).optional(),
        flaggedOnly: z.boolean().optional(),
      })
      .strict()
      .default({}),
    facets: z.boolean().default(true),
  })
  .strict();

export const EntryItem = z.object({
  rid: z.number().int(),
  id: z.string().nullable(),
  store: z.string(),
  collection: z.string(),
  tier: Tier,
  status: z.string().nullable(),
  category: z.string().nullable(),
  scope: z.string().nullable(),
  priority: z.string().nullable(),
  confidence: z.number().nullable(),
  project: z.string().nullable(),
  createdAt: z.string().nullable(),
  updatedAt: z.string().nullable(),
  phasesAlive: z.number().nullable(),
  maxPhases: z.number().nullable(),
  encounterScore: z.number().nullable(),
  shownCount: z.number().nullable(),
  lesson: z.string().nullable(),
  tags: z.array(z.string()),
  flagged: z.boolean(),
  duplicate: z.boolean(),
  file: z.string(),
  line: z.number().int(),
  /** Full-text matches in `lesson` as [start, end) UTF-16 offsets, and which fields matched. */
  match: z.object({ lesson: z.array(z.tuple([z.number().int(), z.number().int()])), fields: z.array(z.string()) }).nullable(),
});
export type EntryItem = z.infer<typeof EntryItem>;

export const EntriesPage = z.object({
  total: z.number().int(),
  items: z.array(EntryItem),
  facets: z.record(z.enum(ENTRY_FACETS), Facet).nullable(),
});

const EntryInput = z
  .object({ id: z.string().min(1).max(128).optional(), rid: z.number().int().min(1).optional(), store: StoreKey.optional() })
  .strict()
  .refine((v) => v.id !== undefined || v.rid !== undefined, 'give id or rid');

export const EntryDetail = z.object({
  rid: z.number().int(),
  id: z.string().nullable(),
  store: z.string(),
  storeLabel: z.string(),
  collection: z.string(),
  tier: Tier,
  file: z.string(),
  path: z.string(),
  line: z.number().int(),
  offset: z.number().int(),
  /** Every field exactly as on disk (unknown fields included). */
  raw: JsonObject,
  /** What the plugin reads after its v1→v2 normalisation. */
  normalised: JsonObject,
  notes: z.array(z.object({ field: z.string(), note: z.string() })),
  defects: z.array(z.object({ line: z.number().int(), offset: z.number().int(), kind: DefectKind, reason: z.string() })),
  /** Other records with the same id (other tiers, quarantine copies, duplicates). */
  alsoIn: z.array(z.object({ rid: z.number().int(), store: z.string(), tier: Tier, file: z.string(), line: z.number().int() })),
});

/** The entry to reveal: by index row (`rid`), or by id within one store (as the Knowledge detail pane knows it). */
export const RevealInput = z
  .object({ rid: z.number().int().min(1).optional(), id: z.string().min(1).max(128).optional(), store: StoreKey.optional() })
  .strict()
  .refine((v) => v.rid !== undefined || v.id !== undefined, 'give rid or id');

/** One entry's text as on disk, credentials unmasked (the person asked; the console audited it). */
export const RevealedEntry = z.object({
  rid: z.number().int(),
  id: z.string().nullable(),
  lesson: z.string().nullable(),
  raw: JsonObject,
  /** The kinds of credential that were masked (e.g. `url_userinfo`), never their values. */
  kinds: z.array(z.string()),
});

export const EventsInput = z
  .object({
    offset: Offset,
    limit: Limit(500, 50),
    sort: z.object({ field: z.enum(['ts', 'kind', 'line']), dir: SortDir }).strict().default({ field: 'ts', dir: 'desc' }),
    filter: z
      .object({
        store: z.array(StoreKey).max(10).optional(),
        kind: Values.optional(),
        session: ShortText.optional(),
        agent: ShortText.optional(),
        tool: ShortText.optional(),
        knowledgeId: ShortText.optional(),
        traceId: ShortText.optional(),
        since: ShortText.optional(),
        until: ShortText.optional(),
        flaggedOnly: z.boolean().optional(),
      })
      .strict()
      .default({}),
    facets: z.boolean().default(false),
  })
  .strict();

const EventItem = z.object({
  rid: z.number().int(),
  store: z.string(),
  file: z.string(),
  line: z.number().int(),
  offset: z.number().int(),
  kind: z.string().nullable(),
  ts: z.string().nullable(),
  sessionId: z.string().nullable(),
  agent: z.string().nullable(),
  tool: z.string().nullable(),
  knowledgeId: z.string().nullable(),
  traceId: z.string().nullable(),
  phase: z.string().nullable(),
  flagged: z.boolean(),
  record: JsonObject,
});
export const EventsPage = z.object({
  total: z.number().int(),
  items: z.array(EventItem),
  facets: z.object({ kind: Facet, store: Facet }).nullable(),
});

const StoreChangeEvent = z.object({
  storeKey: z.string(),
  file: z.string(),
  path: z.string(),
  kind: z.enum(['appended', 'rewritten', 'removed', 'defects']),
  count: z.number().int(),
});
type StoreChangeEvent = z.infer<typeof StoreChangeEvent>;

const ConfigInForce = z.object({
  sources: z.array(z.object({ kind: z.enum(['user', 'project']), path: z.string(), exists: z.boolean(), problem: z.string().nullable() })),
  settings: z.array(
    z.object({
      section: z.enum(['knowledge', 'knowledge_application', 'curator', 'skill_improver']),
      key: z.string(),
      value: z.unknown(),
      default: z.unknown(),
      origin: z.enum(['default', 'user', 'project']),
      docOnly: z.boolean(),
      problem: z.string().nullable(),
    }),
  ),
});

export const storeOps = {
  'stores.summary': query('Every store of the open workspace: path, tier, lines, records, defects and a status line.', NoInput, StoresSummary),
  'stores.defects': query('Defects (file:line:offset and reason), optionally of one store, paged.', DefectsInput, DefectsPage),
  'stores.records': query("Any store's records, paged, sorted and filtered, with the total count.", RecordsInput, RecordsPage),
  'stores.entries': query('Knowledge entries across tiers: paged, sorted, filtered, full-text search, facet counts.', EntriesInput, EntriesPage),
  'stores.entry': query('One knowledge entry with every raw field, its file and line, normalisation notes and defects.', EntryInput, EntryDetail),
  'stores.reveal': revealCommand(
    "One entry's text with its credentials unmasked (everything else the console shows masks them); recorded in the audit log without the text.",
    RevealInput,
    RevealedEntry,
  ),
  'stores.events': query('Events of events.jsonl, knowledge-events.jsonl and the audit logs, paged and filtered.', EventsInput, EventsPage),
  'stores.config': query('The knowledge, knowledge_application, curator and skill_improver settings in force.', NoInput, ConfigInForce),
  'stores.changes': subscription('Pushed when a store file is appended to, rewritten, removed or gains defects.', NoInput, StoreChangeEvent),
} as const;
