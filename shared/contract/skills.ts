import { z } from 'zod';
import { HumanCommitFields, humanCommit, humanPreview, NoInput, command, query } from './define';
import { HumanPreviewBase } from './commands';

/**
 * Operations of the skills and curator area (issue 12): drafts, active/retired/stale skills,
 * motif proposals, external candidates, skill-improver proposals and quotas, the curator's
 * summary, findings, drift reports and insight queue, the eval preview and what skill_apply
 * would do. Read-only: decisions (apply, reject, retire) are human-only commands.
 */

const nullableString = z.string().nullable();
const nullableNumber = z.number().nullable();
const Slug = z.string().min(1).max(200);

const SKILL_KINDS = ['draft', 'motif', 'active', 'retired', 'stale'] as const;
const SkillKind = z.enum(SKILL_KINDS);

export const UsageSummary = z.object({ total: z.number().int(), compliant: z.number().int(), partial: z.number().int(), violated: z.number().int(), notChecked: z.number().int(), other: z.number().int() });

export const SkillItem = z.object({
  slug: z.string(),
  kind: SkillKind,
  /** Project-relative path of the file this item is read from. */
  path: z.string(),
  title: z.string(),
  status: nullableString,
  confidence: nullableNumber,
  version: nullableNumber,
  generatedAt: nullableString,
  skillType: nullableString,
  origin: nullableString,
  sourceIds: z.array(z.string()),
  /** Active/retired/stale only: whether the SKILL.md carries the generator marker (false = hand-edited). */
  hasMarker: z.boolean().nullable(),
  /** Drafts: an active SKILL.md with the same slug exists. */
  hasActive: z.boolean(),
  /** Drafts: the rejected-edits ledger refuses this exact (or equivalent) content. */
  rejected: z.object({ timestamp: nullableString, operation: nullableString, reason: nullableString }).nullable(),
  retired: z.object({ retiredAt: nullableString, reason: nullableString }).nullable(),
  staleReason: nullableString,
  evalCases: z.number().int(),
  usage: UsageSummary.nullable(),
  motif: z
    .object({ generatedBy: nullableString, appliesToAgents: z.array(z.string()), sourceTaskIds: z.array(z.string()), verificationPredicate: nullableString })
    .nullable(),
  problems: z.array(z.string()),
});
export type SkillItem = z.infer<typeof SkillItem>;

export const SkillCandidate = z.object({
  file: z.string(),
  id: z.string(),
  name: nullableString,
  state: nullableString,
  verdict: nullableString,
  riskFlags: z.array(z.string()),
  source: nullableString,
  /** The whole record, for the read-only detail. */
  json: z.string(),
  problem: nullableString,
});

export const ImproverProposal = z.object({
  file: z.string(),
  source: z.enum(['llm', 'deterministic_fallback', 'unknown']),
  generatedAt: nullableString,
  targets: z.array(z.string()),
  model: nullableString,
  body: z.string(),
  problems: z.array(z.string()),
});

export const Quota = z.object({
  file: z.string(),
  kind: z.enum(['skill_improver', 'knowledge_enrichment']),
  present: z.boolean(),
  problem: nullableString,
  date: nullableString,
  callsUsed: nullableNumber,
  maxCalls: nullableNumber,
  lastRunAt: nullableString,
  window: nullableString,
  /** The stored day is not today in the file's window: the plugin will reset calls_used to 0 on its next run. */
  resetsOnNextRun: z.boolean(),
});

export const SkillsOverview = z.object({
  skills: z.array(SkillItem),
  candidates: z.array(SkillCandidate),
  improver: z.object({ proposals: z.array(ImproverProposal), quotas: z.array(Quota) }),
});

const EvalCaseResult = z.object({
  id: z.string(),
  task: nullableString,
  candidate: z.object({ score: z.number(), failures: z.array(z.string()) }),
  incumbent: z.object({ score: z.number(), failures: z.array(z.string()) }).nullable(),
  improves: z.boolean(),
  holds: z.boolean(),
});
export const EvalPreview = z.object({
  status: z.enum(['unevaluated', 'passed', 'rejected', 'invalid_eval_set']),
  passed: z.boolean(),
  reason: z.string(),
  rule: z.enum(['none', 'strictly_improve', 'all_perfect']),
  evalFiles: z.array(z.string()),
  caseCount: z.number().int(),
  candidateScore: z.number(),
  incumbentScore: z.number(),
  cases: z.array(EvalCaseResult),
});
export type EvalPreview = z.infer<typeof EvalPreview>;

const ApplyStep = z.enum(['slug', 'paths', 'proposal', 'marker', 'rejected', 'eval', 'changed']);
const ApplyPlan = z.object({
  slug: z.string(),
  force: z.boolean(),
  evaluate: z.boolean(),
  refusal: z.object({ step: ApplyStep, reason: z.string() }).nullable(),
  proposalPath: nullableString,
  activePath: nullableString,
  incumbent: z.enum(['none', 'generated', 'hand_edited']),
  motif: z.boolean(),
  sourceIds: z.array(z.string()),
  /**
   * Stores the stamp rewrites that hold unparseable lines. The console keeps them byte for byte; the
   * plugin's own rewrite would drop them (README, deliberate differences). `note` is the sentence shown.
   */
  keptUnparseable: z.array(z.object({ tier: z.string(), file: z.string(), lines: z.number().int(), note: z.string() })),
  evaluation: EvalPreview.nullable(),
});
type ApplyPlan = z.infer<typeof ApplyPlan>;

const SourceEntryView = z.object({
  id: z.string(),
  found: z.boolean(),
  tier: nullableString,
  status: nullableString,
  lesson: nullableString,
  confidence: nullableNumber,
  phases: z.array(z.number()),
  outcomeSignal: nullableNumber,
  maturity: z.object({ eligible: z.boolean(), decidedBy: z.string(), reasons: z.array(z.string()) }).nullable(),
  stampedSlug: nullableString,
});

const DiffPart = z.object({ kind: z.enum(['add', 'del', 'same']), text: z.string() });

export const SkillDetail = z.object({
  item: SkillItem,
  source: z.string(),
  frontmatter: z.array(z.object({ key: z.string(), value: z.string() })),
  /** The active SKILL.md of the same slug (drafts and motifs), or null. */
  activeSource: nullableString,
  /** Line diff active → draft (null without an active skill). */
  diff: z.array(DiffPart).nullable(),
  sources: z.array(SourceEntryView),
  changelog: z.array(z.object({ version: nullableNumber, timestamp: nullableString, action: nullableString, reason: nullableString, sectionsChanged: z.array(z.string()) })),
  usage: z.array(z.object({ timestamp: nullableString, agent: nullableString, taskId: nullableString, verdict: nullableString, notes: nullableString, skillVersion: nullableNumber })),
  rejectedEdits: z.array(
    z.object({ timestamp: nullableString, operation: nullableString, reason: nullableString, candidateScore: nullableNumber, incumbentScore: nullableNumber, caseCount: nullableNumber, matchesThis: z.boolean() }),
  ),
  /** The eval gate run on this draft against the incumbent, as skill_apply with evaluate on would (drafts and motifs). */
  evalPreview: EvalPreview.nullable(),
  /** What skill_apply (evaluate on, no force) would do now. */
  plan: ApplyPlan.nullable(),
});
export type SkillDetail = z.infer<typeof SkillDetail>;

const SkillDetailInput = z.object({ slug: Slug, kind: z.enum(['proposal', 'active']) }).strict();
const PlanInput = z.object({ slug: Slug, force: z.boolean().default(false), evaluate: z.boolean().default(true) }).strict();

// Curator (docs/plugin-formats.md#curator).
export const Recommendation = z.object({
  index: z.number().int(),
  action: z.string(),
  entryId: nullableString,
  lesson: z.string(),
  reason: z.string(),
  category: nullableString,
  confidence: nullableNumber,
  /** The hive-promotion hook's synthetic recommendation carries counts in `reason`. */
  promotionCounts: z.record(z.string(), z.number()).nullable(),
  entry: z.object({ tier: z.string(), status: z.string(), lesson: z.string(), confidence: nullableNumber, tags: z.array(z.string()), hiveEligible: z.boolean() }).nullable(),
  /** Read from the entry's current state and its events: the plugin applies recommendations itself at phase_complete. */
  applied: z.enum(['applied', 'not_applied', 'unknown']),
  appliedEvidence: z.string(),
});
export type Recommendation = z.infer<typeof Recommendation>;

export const CuratorOverview = z.object({
  summary: z.object({
    present: z.boolean(),
    problem: nullableString,
    sessionId: nullableString,
    lastUpdated: nullableString,
    lastPhaseCovered: nullableNumber,
    digests: z.array(z.object({ phase: nullableNumber, timestamp: nullableString, summary: z.string(), agents: z.array(z.string()), tasksCompleted: nullableNumber, tasksTotal: nullableNumber, keyDecisions: z.array(z.string()), blockersResolved: z.array(z.string()) })),
    compliance: z.array(z.object({ phase: nullableNumber, timestamp: nullableString, type: z.string(), severity: z.string(), description: z.string() })),
    recommendations: z.array(Recommendation),
  }),
  findings: z.array(z.object({ phase: z.string(), file: z.string(), knowledgeId: z.string(), expected: z.string(), observed: z.string(), verdict: z.string(), evidenceRefs: z.array(z.string()), entryFound: z.boolean() })),
  drift: z.array(z.object({ file: z.string(), phase: nullableNumber, alignment: nullableString, driftScore: nullableNumber, fields: z.array(z.object({ key: z.string(), value: z.string() })), problem: nullableString })),
  insights: z.array(z.object({ line: z.number().int(), lesson: z.string(), category: nullableString, tags: z.array(z.string()), sourceKind: nullableString, taskId: nullableString, agent: nullableString, outcome: nullableString, createdAt: nullableString })),
  problems: z.array(z.string()),
});
export type CuratorOverview = z.infer<typeof CuratorOverview>;

// The review queue: everything waiting for a person, one list.
export const QUEUE_KINDS = ['skill_draft', 'curator_recommendation', 'rejected_lesson', 'unactionable_lesson', 'hive_contradiction', 'repeated_denial'] as const;
const QueueKind = z.enum(QUEUE_KINDS);
export const QueueItem = z.object({
  key: z.string(),
  kind: QueueKind,
  title: z.string(),
  detail: z.string(),
  at: nullableString,
  /** What Enter opens. */
  open: z.object({ view: z.enum(['skills', 'knowledge', 'live']), slug: nullableString, entryId: nullableString, tier: nullableString }),
  /** Which decisions exist for it today (the rest are shown, not offered). */
  actions: z.array(z.enum(['approve', 'reject'])),
  /** For a knowledge item, the human-only command `a` opens (issue 11's quarantine / promote), or null. */
  command: z.object({ preview: z.enum(['swarm.promote.preview', 'swarm.quarantine.preview', 'swarm.archive.preview', 'hive.quarantine.preview']), label: z.string(), id: z.string() }).nullable(),
});
export type QueueItem = z.infer<typeof QueueItem>;
const ReviewQueue = z.object({
  items: z.array(QueueItem),
  counts: z.record(z.string(), z.number().int()),
  /** Items left out because a person dismissed them (console-side record, not a plugin store). */
  dismissed: z.number().int(),
  /** Every dismissed key of this workspace, so the view can leave out the items it builds itself (repeated denials). */
  dismissedKeys: z.array(z.string()),
});
/** Dismiss an item that has no store-writing decision: "reviewed — dismissed: <reason>". */
const ReviewDismissInput = z.object({ key: z.string().min(1).max(400), reason: z.string().trim().min(1, 'say why it needs nothing more').max(500) }).strict();
const ReviewDismissal = z.object({ key: z.string(), at: z.string(), reason: z.string() });

export const skillOps = {
  'skills.overview': query('Skill drafts, motif proposals, active/retired/stale skills, external candidates, skill-improver proposals and quotas.', NoInput, SkillsOverview),
  'skills.detail': query('One draft or active skill with its source, frontmatter, diff, source entries, logs, rejected edits and eval preview.', SkillDetailInput, SkillDetail),
  'skills.planApply': query('What skill_apply would do now with these options, in the plugin order, without writing.', PlanInput, ApplyPlan),
  'curator.overview': query('Curator summary (digests, compliance, recommendations next to their entries), findings, drift reports and insight queue.', NoInput, CuratorOverview),
  'review.queue': query('Everything waiting for a person: drafts, unapplied recommendations, rejected/unactionable lessons, contradictions, repeated denials.', NoInput, ReviewQueue),
  'review.dismiss': command('Records "reviewed — dismissed: <reason>" for a queue item without a store-writing decision (console user data only); it returns when the item changes.', ReviewDismissInput, ReviewDismissal),
} as const;

// Human-only decisions (preview → token → the person's confirmation → commit → audit), issue 11's machinery.
const SkillApplyPreviewInput = z.object({ slug: Slug, force: z.boolean().default(false), evaluate: z.boolean().default(true) }).strict();
export const SkillApplyPreview = HumanPreviewBase.extend({ plan: ApplyPlan, title: z.string() });
const SkillSlugPreviewInput = z.object({ slug: Slug }).strict();
export const SkillRejectPreview = HumanPreviewBase.extend({
  slug: z.string(),
  proposalPath: z.string(),
  candidateHash: z.string(),
  candidateNormalizedHash: z.string(),
  evaluation: EvalPreview,
  alreadyRejected: z.boolean(),
});
export const SkillRetirePreview = HumanPreviewBase.extend({ slug: z.string(), activePath: z.string(), markerPath: z.string(), hasMarker: z.boolean() });
const SkillCommitInput = z.object(HumanCommitFields).strict();

const StampedStore = z.object({ tier: z.string(), file: z.string(), stampedIds: z.array(z.string()), lines: z.number().int(), note: nullableString });
export const SkillDecisionResult = z.object({
  /** committed: the decision was carried out; refused: a check of the plugin's order said no (nothing written); eval_failed: only a rejected-edit record was written. */
  state: z.enum(['committed', 'refused', 'eval_failed']),
  op: z.string(),
  slug: z.string(),
  token12: z.string(),
  /** The verified backup (console user data) of every file before the write, or null when nothing was written. */
  backup: nullableString,
  refusal: z.object({ step: ApplyStep, reason: z.string() }).nullable(),
  written: z.array(z.string()),
  removed: z.array(z.string()),
  /** skill_apply only. */
  activated: z.boolean(),
  stamped: z.boolean(),
  stampNote: nullableString,
  stores: z.array(StampedStore),
  notFound: z.array(z.string()),
  proposalKept: z.boolean(),
  evaluation: EvalPreview.nullable(),
  /** After the write every file read back as intended (other lines byte for byte). */
  verified: z.boolean(),
  messages: z.array(z.string()),
  /** When the console re-reads the stamped stores for a concurrent plugin rewrite that dropped the stamp (docs/plugin-formats.md#second-process-writes, rule 8: re-verify after writing). */
  revertCheckAt: nullableString,
});
export type SkillDecisionResult = z.infer<typeof SkillDecisionResult>;

export const skillDecisionOps = {
  'skills.apply.preview': humanPreview('What skill_apply would do for this draft (plugin order, eval gate), with a confirmation token.', SkillApplyPreviewInput, SkillApplyPreview),
  'skills.apply.commit': humanCommit('Activates the previewed draft as the plugin’s skill_apply would: SKILL.md, stamped source entries, proposal removed.', SkillCommitInput, SkillDecisionResult),
  'skills.reject.preview': humanPreview('The rejected-edit record rejecting this draft would append, with a confirmation token.', SkillSlugPreviewInput, SkillRejectPreview),
  'skills.reject.commit': humanCommit('Appends an operator_reject record (the person’s reason) so the plugin refuses equivalent content; the draft stays.', SkillCommitInput, SkillDecisionResult),
  'skills.retire.preview': humanPreview('What retiring this active skill writes (retired.marker), with a confirmation token.', SkillSlugPreviewInput, SkillRetirePreview),
  'skills.retire.commit': humanCommit('Writes retired.marker as the plugin’s skill_retire does.', SkillCommitInput, SkillDecisionResult),
} as const;
