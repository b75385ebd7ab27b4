import { z } from 'zod';
import { NoInput, query } from './define';
import { EntriesInput, EntriesPage, EntryItem } from './stores';

/**
 * Operations of the knowledge area (issue 4): what the Knowledge and Directives views derive
 * beyond the raw store rows — effective counters, lifecycle/quality markers, the skill maturity
 * verdict, inboxes, directive funnels and the injection preview. Row listing, facets and search
 * come from `stores.entries`.
 */

const Id = z.string().min(1).max(128);
const EntryTier = z.enum(['swarm', 'hive', 'link']);
const EntryCollection = z.enum(['active', 'rejected', 'quarantined', 'unactionable']);
const Priority = z.enum(['low', 'medium', 'high', 'critical']);

const Thresholds = z.object({
  default_max_phases: z.number(),
  todo_max_phases: z.number(),
  evergreen_confidence: z.number(),
  evergreen_utility: z.number(),
  low_utility_threshold: z.number(),
  min_retrievals_for_utility: z.number(),
  dedup_threshold: z.number(),
  max_inject_count: z.number(),
  inject_char_budget: z.number(),
  max_lesson_display_chars: z.number(),
  directive_min_confidence: z.number(),
  context_budget_threshold: z.number().nullable(),
  scope_filter: z.array(z.string()),
  hive_enabled: z.boolean(),
  auto_promote_days: z.number(),
  min_skill_confidence: z.number(),
  min_skill_confirmations: z.number(),
});
type Thresholds = z.infer<typeof Thresholds>;

export const ThresholdsInForce = z.object({
  values: Thresholds,
  /** Where each value comes from (`default`, `user` or `project` config), and any problem with the configured value. */
  origins: z.array(z.object({ key: z.string(), origin: z.enum(['default', 'user', 'project']), problem: z.string().nullable() })),
  /** Problems reading the config files themselves. */
  problems: z.array(z.string()),
});

const ExpiryMarker = z
  .object({
    action: z.enum(['archived', 'deleted']),
    phasesLeft: z.number().int(),
    phasesAlive: z.number().int(),
    limit: z.number(),
    limitSource: z.enum(['max_phases', 'default_max_phases', 'todo_max_phases']),
  })
  .nullable();

const QualityMarkers = z.object({ utility: z.number().nullable(), evergreen: z.boolean(), lowUtility: z.boolean() });

export const EntryMarkers = z.object({
  expiry: ExpiryMarker,
  quality: QualityMarkers,
  signal: z.number(),
  shown: z.number(),
  violationsInWindow: z.number().int(),
  lastViolationAt: z.string().nullable(),
});
export type EntryMarkers = z.infer<typeof EntryMarkers>;

export const EffectiveOutcomes = z.object({
  shown_count: z.number(),
  acknowledged_count: z.number(),
  applied_explicit_count: z.number(),
  ignored_count: z.number(),
  violated_count: z.number(),
  contradicted_count: z.number(),
  succeeded_after_shown_count: z.number(),
  failed_after_shown_count: z.number(),
  partial_after_shown_count: z.number(),
  n_a_count: z.number(),
  violation_timestamps: z.array(z.string()),
  last_applied_at: z.string().nullable(),
  last_acknowledged_at: z.string().nullable(),
  /** Frozen pre-v2 counters: written, never incremented any more. */
  legacy: z.object({ applied_count: z.number(), succeeded_after_count: z.number(), failed_after_count: z.number() }),
  fromRollup: z.boolean(),
});
export type EffectiveOutcomes = z.infer<typeof EffectiveOutcomes>;

export const MaturityVerdict = z.object({
  eligible: z.boolean(),
  decidedBy: z.enum(['negative_signal', 'strong_record', 'fast_track', 'standard']),
  reasons: z.array(z.string()),
  checks: z.array(z.object({ rule: z.enum(['negative_signal', 'strong_record', 'fast_track', 'confidence', 'confirmations']), passed: z.boolean(), detail: z.string() })),
  signal: z.number(),
  confidence: z.number(),
  distinctPhases: z.number().int(),
  confirmationsFrom: z.enum(['phases', 'projects']),
  priority: Priority,
  hasSkill: z.boolean(),
});
export type MaturityVerdict = z.infer<typeof MaturityVerdict>;

const EventRef = z.object({
  kind: z.string(),
  at: z.string().nullable(),
  traceId: z.string().nullable(),
  sessionId: z.string().nullable(),
  phase: z.string().nullable(),
  agent: z.string().nullable(),
  reason: z.string().nullable(),
  source: z.string().nullable(),
  storeKey: z.string(),
  file: z.string(),
  line: z.number().int(),
});

const SkillRef = z.object({
  slug: z.string(),
  path: z.string(),
  kind: z.enum(['active', 'proposal']),
  status: z.string().nullable(),
  retired: z.boolean(),
  stale: z.boolean(),
});

const Location = z.object({ tier: EntryTier, collection: EntryCollection, storeKey: z.string(), file: z.string(), line: z.number().int() });

export const EntryDetail = Location.extend({
  id: z.string(),
  /** The entry as the plugin reads it (normalised), every field. */
  value: z.record(z.string(), z.unknown()),
  /** The line exactly as written in the store. */
  text: z.string(),
  notes: z.array(z.object({ field: z.string(), note: z.string() })),
  /** Other copies of the same id (quarantine sidecar, rejected fingerprint, the other tier…). */
  copies: z.array(Location),
  outcomes: EffectiveOutcomes,
  markers: EntryMarkers,
  /** Null for rejected fingerprints (no lesson entry to compile). */
  maturity: MaturityVerdict.nullable(),
  timeline: z.array(z.object({ phase: z.number().nullable(), project: z.string().nullable(), at: z.string().nullable() })),
  receipts: z.object({ total: z.number().int(), byKind: z.record(z.string(), z.number().int()), recent: z.array(EventRef) }),
  skills: z.array(SkillRef),
  counterparts: z.array(
    z.object({ id: z.string(), tier: EntryTier, lesson: z.string(), status: z.string(), similarity: z.number(), exact: z.boolean() }),
  ),
  asOf: z.string(),
  windowDays: z.number(),
});
export type EntryDetail = z.infer<typeof EntryDetail>;

const RejectedGroup = z.object({
  layer: z.enum(['1', '2', '3', 'unknown']),
  label: z.string(),
  items: z.array(
    z.object({
      id: z.string(),
      lesson: z.string(),
      reason: z.string(),
      rejectedAt: z.string().nullable(),
      layer: z.enum(['1', '2', '3', 'unknown']),
      store: z.enum(['swarm', 'hive']),
      quarantineFingerprint: z.boolean(),
    }),
  ),
});

const DuplicateClusterGroup = z.object({
  group: z.enum(['project', 'hive']),
  threshold: z.number(),
  total: z.number().int(),
  clusters: z.array(
    z.object({
      /** Lessons in the cluster; `members` lists at most 20 of them. */
      size: z.number().int(),
      maxSimilarity: z.number(),
      minLinkSimilarity: z.number(),
      members: z.array(z.object({ id: z.string(), tier: EntryTier, lesson: z.string(), status: z.string(), confidence: z.number(), similarity: z.number() })),
    }),
  ),
});

/**
 * How current a result computed off the request path is. While the stores change, the last
 * complete result is served with `stale: true` (and `computing: true` while a newer one is under
 * way); `asOf` is when the stores it was computed from were read.
 */
export const Freshness = z.object({ stale: z.boolean(), computing: z.boolean(), asOf: z.string() });
export type Freshness = z.infer<typeof Freshness>;

export const Inboxes = z.object({
  rejected: z.array(RejectedGroup),
  unactionable: z.array(
    z.object({
      id: z.string(),
      lesson: z.string(),
      reason: z.string(),
      reasonText: z.string(),
      quarantinedAt: z.string().nullable(),
      retireCandidate: z.boolean(),
      category: z.string(),
    }),
  ),
  duplicates: z.array(DuplicateClusterGroup),
  /** Near-duplicate clustering runs in the background: how current `duplicates` is (the other inboxes are always current). */
  duplicatesFreshness: Freshness,
});
export type Inboxes = z.infer<typeof Inboxes>;

export const DirectivesQuery = z
  .object({
    /** Case-insensitive substring over lesson, triggers and actions. */
    q: z.string().max(200).default(''),
    priority: z.array(Priority).max(4).default([]),
    tier: z.array(EntryTier).max(3).default([]),
    /** Archived and quarantined directives are left out unless asked for. */
    includeInactive: z.boolean().default(false),
    /** Only directives that archive (or are deleted) within this many phases. */
    expiringWithin: z.number().int().min(0).max(10_000).nullable().default(null),
    /** Only directives violated within the week before `asOf`. */
    violatedInWindow: z.boolean().default(false),
    eligibility: z.enum(['any', 'eligible', 'not_eligible']).default('any'),
    sort: z.enum(['priority', 'expiry', 'violations', 'signal', 'updated', 'shown']).default('priority'),
    limit: z.number().int().min(1).max(500).default(100),
    offset: z.number().int().min(0).max(10_000_000).default(0),
  })
  .strict();

const Funnel = z.object({
  shown: z.number(),
  acknowledged: z.number(),
  applied: z.number(),
  ignored: z.number(),
  n_a: z.number(),
  contradicted: z.number(),
  violated: z.number(),
  succeeded_after_shown: z.number(),
  failed_after_shown: z.number(),
  partial_after_shown: z.number(),
});

export const DirectiveRow = z.object({
  id: z.string(),
  tier: EntryTier,
  lesson: z.string(),
  status: z.string(),
  confidence: z.number(),
  priority: Priority,
  priorityExplicit: z.boolean(),
  enforcement_mode: z.string().nullable(),
  triggers: z.array(z.string()),
  required_actions: z.array(z.string()),
  forbidden_actions: z.array(z.string()),
  applies_to_agents: z.array(z.string()),
  applies_to_tools: z.array(z.string()),
  verification_checks: z.array(z.string()),
  verification_predicate: z.string().nullable(),
  escalation_history: z.array(z.object({ from: z.string().nullable(), to: z.string().nullable(), reason: z.string().nullable(), at: z.string().nullable() })),
  generated_skill_path: z.string().nullable(),
  updated_at: z.string().nullable(),
  funnel: Funnel,
  signal: z.number(),
  maturity: MaturityVerdict,
  expiry: ExpiryMarker,
  violationsInWindow: z.number().int(),
  lastViolationAt: z.string().nullable(),
});
export type DirectiveRow = z.infer<typeof DirectiveRow>;

export const DirectivesPage = z.object({
  total: z.number().int(),
  rows: z.array(DirectiveRow),
  counts: z.object({
    all: z.number().int(),
    byPriority: z.record(z.string(), z.number().int()),
    expiringSoon: z.number().int(),
    violatedInWindow: z.number().int(),
    notEligible: z.number().int(),
  }),
  /** "Expiring soon" means archives within this many phases. */
  soonPhases: z.number().int(),
  asOf: z.string(),
  windowDays: z.number(),
});

export const PreviewInput = z
  .object({
    phase: z.string().max(200),
    agent: z.string().max(64).optional(),
    tool: z.string().max(64).optional(),
    filePaths: z.array(z.string().max(512)).max(50).default([]),
    taskText: z.string().max(2000).optional(),
    headroomPercent: z.number().min(0).max(100),
    projectName: z.string().max(200).optional(),
  })
  .strict();

const ScoreParts = z.object({
  category: z.number(),
  confidence: z.number(),
  keywords: z.number(),
  tierBoost: z.number(),
  sameProjectPenalty: z.number(),
  base: z.number(),
});

const InjectionPreview = z.object({
  regime: z.enum(['full', 'half', 'quarter', 'skipped']),
  headroomChars: z.number(),
  modelLimitChars: z.number(),
  minInjectChars: z.number(),
  effectiveBudget: z.number(),
  directiveBudget: z.number(),
  lessonBudget: z.number(),
  maxInjectCount: z.number(),
  lines: z.array(
    z.object({
      id: z.string(),
      tier: z.string(),
      lesson: z.string(),
      priority: z.string().nullable(),
      confidence: z.number(),
      rank: z.number().int(),
      pass: z.enum(['critical_match', 'score']),
      baseScore: ScoreParts,
      directive: z.object({
        triggerHit: z.boolean(),
        toolHit: z.boolean(),
        agentHit: z.boolean(),
        matchedTrigger: z.string().nullable(),
        priority: z.number(),
        score: z.number(),
      }),
      contextual: z.object({ confidentMatchBoost: z.number(), skillBoost: z.number(), final: z.number() }),
      selection: z.enum(['selected', 'beyond_max_inject_count', 'below_confidence_floor']),
      directiveBlock: z.enum(['included', 'cut_by_budget', 'not_a_directive']).nullable(),
      lessonBlock: z.enum(['included', 'cut_by_budget']).nullable(),
    }),
  ),
  /** The first 200 merges; `mergedCount` is the total. */
  merged: z.array(z.object({ keptId: z.string(), droppedId: z.string(), kind: z.enum(['exact', 'hive_near_duplicate', 'swarm_near_duplicate']), similarity: z.number() })),
  mergedCount: z.number().int(),
  excluded: z.array(
    z.object({
      reason: z.enum(['inactive_status', 'scope_filter', 'retracted', 'hive_disabled']),
      count: z.number().int(),
      examples: z.array(z.object({ id: z.string(), lesson: z.string() })),
    }),
  ),
  directiveBlock: z.string().nullable(),
  lessonBlock: z.string().nullable(),
  directiveIds: z.array(z.string()),
  consideredCount: z.number().int(),
  rules: z.array(z.string()),
  /** The tier merge runs in the background: how current the lessons this preview ranks are. */
  freshness: Freshness,
});
type InjectionPreview = z.infer<typeof InjectionPreview>;

/** Index row ids (`rid` of `stores.entries` items). */
const MarkersInput = z.object({ rids: z.array(z.number().int().min(1)).max(1000) }).strict();

/**
 * A Knowledge table row: the indexed entry with the markers the knowledge area derives for it,
 * assembled in the core from one read of the index (null: the line is not a lesson the model reads).
 */
export const KnowledgeRow = EntryItem.extend({ markers: EntryMarkers.nullable() });
export type KnowledgeRow = z.infer<typeof KnowledgeRow>;
export const KnowledgeRowsPage = EntriesPage.extend({ items: z.array(KnowledgeRow), asOf: z.string() });

/** Rows an export may hold; the result says when the filtered set was larger. */
export const MAX_EXPORT_ROWS = 100_000;

const ExportInput = z
  .object({
    format: z.enum(['jsonl', 'csv']),
    filter: EntriesInput.shape.filter,
    sort: EntriesInput.shape.sort,
  })
  .strict();

const ExportResult = z.object({
  filename: z.string(),
  mime: z.string(),
  content: z.string(),
  count: z.number().int(),
  total: z.number().int(),
  truncated: z.boolean(),
});

export const knowledgeOps = {
  'knowledge.thresholds': query('The knowledge thresholds in force (config over plugin defaults), with their origin.', NoInput, ThresholdsInForce),
  'knowledge.detail': query(
    'One entry with every field, effective counters, markers, maturity verdict, confirmations, receipts, citing skills and cross-tier counterparts.',
    z.object({ id: Id, tier: EntryTier.optional() }).strict(),
    EntryDetail,
  ),
  'knowledge.markers': query(
    'Lifecycle and quality markers (archives-in-N, evergreen, low-utility, outcome signal) for table rows, keyed by rid.',
    MarkersInput,
    z.object({ markers: z.record(z.string(), EntryMarkers), asOf: z.string() }),
  ),
  'knowledge.rows': query(
    'A page of the Knowledge table: the entries of `stores.entries` (paged, sorted, filtered, searched, with facets), each with its markers.',
    EntriesInput,
    KnowledgeRowsPage,
  ),
  'knowledge.inboxes': query('Rejected lessons by validation layer, the unactionable queue and near-duplicate clusters.', NoInput, Inboxes),
  'knowledge.directives': query('Directive entries with their outcome funnel, maturity verdict and expiry, filtered and paged.', DirectivesQuery, DirectivesPage),
  'knowledge.previewInjection': query(
    'A preview of the documented injection rules for a decision point: ranking, budget regime, cuts and merged near-duplicates.',
    PreviewInput,
    InjectionPreview,
  ),
  'knowledge.export': query('The current filtered set of entries as JSON Lines (lines as stored) or CSV (the table columns).', ExportInput, ExportResult),
} as const;
