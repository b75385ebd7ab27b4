import { entryId, entryLesson, entryScope, entryStatus, str, type RawEntry } from '../rules/entry-fields';
import { normalizeLesson } from '../rules/similarity';
import { MERGE_KINDS, mergeTierLessons, READER_DEDUP_THRESHOLD, type MergeKind, type TierMerge } from '../rules/tier-merge';
import type { TimeSlicer } from '../platform/util/time-slicer';
import { baseOrder } from '../rules/base-order';
import { isActiveStatus, type KnowledgeThresholds } from '../rules/thresholds';
import { baseScore, contextualScore, directiveScore, isDirectiveEntry, phaseCategories, type BaseScore, type ContextualScore, type DecisionContext, type DirectiveScore } from '../rules/injection-scoring';
import { buildDirectiveBlock, buildLessonBlock } from '../rules/injection-blocks';
import type { ReadList } from './chunked-list';

/**
 * A preview of the documented injection rules: which entries the architect's
 * `<swarm_knowledge_directives>` block (and the lesson list after it) would carry for a given
 * decision point. It restates the plugin's reader/injector rules; it does not run the plugin.
 */

/** The injector's model-size assumption: 128k tokens at 0.33 tokens per char. */
export const MODEL_LIMIT_CHARS = Math.floor(128_000 / 0.33);
/** Headroom floor when `context_budget_threshold` is unset. */
const DEFAULT_MIN_INJECT_CHARS = 300;
/** The injector keeps only entries at or above this confidence (`filterHighConfidenceKnowledge`). */
const HIGH_CONFIDENCE_FLOOR = 0.8;
/** The reader ranks a wider window than `max_inject_count` before the contextual re-rank. */
const WIDE_WINDOW = 20;
const DIRECTIVE_BUDGET_SHARE = 0.45;
const LESSON_BUDGET_SHARE = 0.3;
const MAX_EXCLUDED_EXAMPLES = 20;
const MAX_MERGED_LISTED = 200;

interface PreviewContext extends DecisionContext {
  /** The phase label as the plan names it, e.g. "Phase 3: Implement refunds". */
  phase: string;
  /** Share of the model context still free, 0–100. */
  headroomPercent: number;
  /** The current project's name (hive lessons from it get a small penalty and no "(from: …)"). */
  projectName?: string | undefined;
}

interface PreviewSources {
  /** Project (or link-tier) entries in file order. */
  swarm: ReadList<RawEntry>;
  hive: ReadList<RawEntry>;
  /** `knowledge-retractions.jsonl` records; their `normalized_lesson`s are suppressed. */
  retractions?: readonly RawEntry[];
}

type Regime = 'full' | 'half' | 'quarter' | 'skipped';

export type ExclusionReason = 'inactive_status' | 'scope_filter' | 'retracted' | 'hive_disabled';

export interface MergedDuplicate {
  keptId: string;
  droppedId: string;
  kind: MergeKind;
  similarity: number;
}

interface PreviewLine {
  id: string;
  tier: string;
  lesson: string;
  priority: string | null;
  confidence: number;
  /** Order after the contextual re-rank (1-based). */
  rank: number;
  /** `critical_match` entries are placed first (a critical directive that hit the context). */
  pass: 'critical_match' | 'score';
  baseScore: BaseScore;
  directive: DirectiveScore;
  contextual: ContextualScore;
  selection: 'selected' | 'beyond_max_inject_count' | 'below_confidence_floor';
  directiveBlock: 'included' | 'cut_by_budget' | 'not_a_directive' | null;
  lessonBlock: 'included' | 'cut_by_budget' | null;
}

interface InjectionPreview {
  regime: Regime;
  headroomChars: number;
  modelLimitChars: number;
  minInjectChars: number;
  effectiveBudget: number;
  directiveBudget: number;
  lessonBudget: number;
  maxInjectCount: number;
  /** Candidates of the wide window in final order, with every score component. */
  lines: PreviewLine[];
  /** The first merges (at most MAX_MERGED_LISTED); `mergedCount` says how many there were. */
  merged: MergedDuplicate[];
  mergedCount: number;
  excluded: { reason: ExclusionReason; count: number; examples: { id: string; lesson: string }[] }[];
  directiveBlock: string | null;
  lessonBlock: string | null;
  /** Ids in the order they appear in the directive block. */
  directiveIds: string[];
  consideredCount: number;
  rules: string[];
}

export function budgetRegime(headroomPercent: number, t: Pick<KnowledgeThresholds, 'inject_char_budget' | 'context_budget_threshold'>) {
  const pct = Math.max(0, Math.min(100, headroomPercent));
  const headroomChars = Math.floor((MODEL_LIMIT_CHARS * pct) / 100);
  const minInjectChars = t.context_budget_threshold ?? DEFAULT_MIN_INJECT_CHARS;
  const max = t.inject_char_budget;
  let regime: Regime;
  let effectiveBudget: number;
  // Regimes compare the share directly (the plugin compares chars against 60 % / 20 % of the limit).
  if (headroomChars < minInjectChars) [regime, effectiveBudget] = ['skipped', 0];
  else if (pct >= 60) [regime, effectiveBudget] = ['full', max];
  else if (pct >= 20) [regime, effectiveBudget] = ['half', Math.floor(max * 0.5)];
  else [regime, effectiveBudget] = ['quarter', Math.floor(max * 0.25)];
  return { regime, headroomChars, minInjectChars, effectiveBudget };
}

/** The lessons that take part in injection, and how many were left out and why. */
export interface EligibleSources {
  hive: RawEntry[];
  swarm: RawEntry[];
  excluded: Map<ExclusionReason, { count: number; examples: { id: string; lesson: string }[] }>;
}

/** The reader's filters as one predicate per entry, collecting what it leaves out (into `excluded`). */
export function eligibility(
  sources: Pick<PreviewSources, 'retractions'>,
  t: Pick<KnowledgeThresholds, 'scope_filter' | 'hive_enabled'>,
  normalized: (entry: RawEntry) => string,
  excluded: EligibleSources['excluded'] = new Map(),
) {
  const retracted = new Set((sources.retractions ?? []).map((r) => str(r.normalized_lesson)).filter((v): v is string => !!v));
  const exclude = (entry: RawEntry, reason: ExclusionReason) => {
    const bucket = excluded.get(reason) ?? { count: 0, examples: [] };
    bucket.count++;
    if (bucket.examples.length < MAX_EXCLUDED_EXAMPLES) bucket.examples.push({ id: entryId(entry), lesson: entryLesson(entry) });
    excluded.set(reason, bucket);
  };
  const eligible = (entry: RawEntry) => {
    if (!isActiveStatus(entryStatus(entry))) return exclude(entry, 'inactive_status'), false;
    if (!t.scope_filter.includes(entryScope(entry))) return exclude(entry, 'scope_filter'), false;
    // Normalising every lesson costs a regex pass each; without retractions nothing can match.
    if (retracted.size > 0 && retracted.has(normalized(entry))) return exclude(entry, 'retracted'), false;
    return true;
  };
  const hiveDisabled = (entry: RawEntry) => (exclude(entry, 'hive_disabled'), false);
  return { eligible, hiveDisabled, excluded };
}

const normalizeOf = (entry: RawEntry) => normalizeLesson(entryLesson(entry));

/** The reader's filters: inactive statuses, scopes outside scope_filter, retracted lessons, a disabled hive. */
function eligibleSources(sources: PreviewSources, t: Pick<KnowledgeThresholds, 'scope_filter' | 'hive_enabled'>): EligibleSources {
  const { eligible, hiveDisabled, excluded } = eligibility(sources, t, normalizeOf);
  const hive = sources.hive.filter(t.hive_enabled ? eligible : hiveDisabled);
  const swarm = sources.swarm.filter(eligible);
  return { hive, swarm, excluded };
}

/** eligibleSources in time slices, with normalised lessons from a cache. */
export async function eligibleSourcesSliced(
  sources: PreviewSources,
  t: Pick<KnowledgeThresholds, 'scope_filter' | 'hive_enabled'>,
  slicer: TimeSlicer,
  normalized: (entry: RawEntry) => string = normalizeOf,
): Promise<EligibleSources> {
  const { eligible, hiveDisabled, excluded } = eligibility(sources, t, normalized);
  const hive = await slicer.filter(sources.hive, t.hive_enabled ? eligible : hiveDisabled);
  const swarm = await slicer.filter(sources.swarm, eligible);
  return { hive, swarm, excluded };
}

/** Turns the merge's indices back into entries: kept swarm positions and each merge (by row) as ids. */
function mergeMappers({ hive, swarm }: Pick<EligibleSources, 'hive' | 'swarm'>, merge: TierMerge) {
  const at = (index: number) => (index < hive.length ? hive[index]! : swarm[index - hive.length]!);
  const { keptAt, dropped, kind, similarity } = merge.merged;
  return {
    kept: (s: number) => swarm[s]!,
    rows: Array.from(dropped, (_, row) => row),
    merged: (row: number): MergedDuplicate => ({
      keptId: entryId(at(keptAt[row]!)),
      droppedId: entryId(swarm[dropped[row]!]!),
      kind: MERGE_KINDS[kind[row]!]!,
      similarity: similarity[row]!,
    }),
  };
}

/** The merge of eligible tiers as entries: what is kept (hive, then kept swarm) and what was dropped for what. */
function applyTierMerge(eligible: Pick<EligibleSources, 'hive' | 'swarm'>, merge: TierMerge): { kept: RawEntry[]; merged: MergedDuplicate[] } {
  const map = mergeMappers(eligible, merge);
  return { kept: [...eligible.hive, ...Array.from(merge.keptSwarm, map.kept)], merged: map.rows.map(map.merged) };
}

/** applyTierMerge in time slices. */
export async function applyTierMergeSliced(
  eligible: Pick<EligibleSources, 'hive' | 'swarm'>,
  merge: TierMerge,
  slicer: TimeSlicer,
): Promise<{ kept: RawEntry[]; merged: MergedDuplicate[] }> {
  const map = mergeMappers(eligible, merge);
  return { kept: [...eligible.hive, ...(await slicer.map(Array.from(merge.keptSwarm), map.kept))], merged: await slicer.map(map.rows, map.merged) };
}

const time = (entry: RawEntry) => Date.parse(str(entry.created_at) ?? '') || 0;

/**
 * Kept lessons ordered by base score (ties within 0.001 to the newer entry), as positions into
 * `kept`. The score depends on the entry, whether there is a phase and which categories it
 * favours, and the project: a ranking is cached per RankingBasis.
 */
export interface BaseRanking {
  order: ArrayLike<number>;
  /** The base score of each kept lesson, when kept for a ranking of more lessons later. */
  base?: Float64Array;
}

export interface RankingBasis {
  /** The categories the phase favours; null when no phase is given. */
  categories: readonly string[] | null;
  projectName: string | undefined;
}

export const rankingBasis = (ctx: Pick<PreviewContext, 'phase' | 'projectName'>): RankingBasis => ({
  categories: ctx.phase ? phaseCategories(ctx.phase) : null,
  projectName: ctx.projectName,
});

export const rankingKey = (basis: RankingBasis): string => JSON.stringify([basis.categories, basis.projectName ?? null]);

/** baseScore as the ranking basis determines it (the phase text matters only through its categories). */
const scoreOf = (entry: RawEntry, basis: RankingBasis) => baseScore(entry, basis.categories ? 'phase' : '', basis.projectName, basis.categories ?? []);

/** Creation times (ms) of the kept lessons, for the ranking's tie-break. */
export const keptTimes = (kept: readonly RawEntry[]): Float64Array => Float64Array.from(kept, time);

/** keptTimes in time slices (a date parse per lesson); `known` are the times of the first lessons, when known. */
export async function keptTimesSliced(kept: readonly RawEntry[], slicer: TimeSlicer, known?: Float64Array): Promise<Float64Array> {
  const times = new Float64Array(kept.length);
  const from = known && known.length <= kept.length ? known.length : 0;
  if (from > 0) times.set(known!);
  for (let i = from; i < kept.length; i++) {
    times[i] = time(kept[i]!);
    if ((i & 63) === 63) await slicer.yield();
  }
  return times;
}

export function rankByBase(kept: readonly RawEntry[], basis: RankingBasis, times: ArrayLike<number> = keptTimes(kept)): BaseRanking {
  return { order: baseOrder(Float64Array.from(kept, (entry) => scoreOf(entry, basis).base), times) };
}

/**
 * rankByBase with the scoring in time slices and the sort (hundreds of ms at 100k lessons, one
 * uninterruptible step) handed to `sort`, e.g. a worker thread running the same baseOrder.
 */
export async function rankByBaseSliced(
  kept: readonly RawEntry[],
  basis: RankingBasis,
  times: Float64Array,
  slicer: TimeSlicer,
  sort: (base: Float64Array, times: Float64Array) => Promise<ArrayLike<number>> = async (base, t) => baseOrder(base, t),
  /** Base scores of the first kept lessons under the same basis (a merge this one grew from). */
  known?: Float64Array,
): Promise<BaseRanking> {
  const base = new Float64Array(kept.length);
  const from = known && known.length <= kept.length ? known.length : 0;
  if (from > 0) base.set(known!);
  for (let i = from; i < kept.length; i++) {
    base[i] = scoreOf(kept[i]!, basis).base;
    if ((i & 63) === 63) await slicer.yield();
  }
  return { order: await sort(base, times), base };
}

export function previewInjection(sources: PreviewSources, ctx: PreviewContext, t: KnowledgeThresholds): InjectionPreview {
  const eligible = eligibleSources(sources, t);
  const merge = mergeTierLessons(eligible.hive.map(entryLesson), eligible.swarm.map(entryLesson));
  return rankPreview(eligible, applyTierMerge(eligible, merge), ctx, t);
}

/**
 * The per-decision-point part of the preview, once the (costly, context-free) tier merge is
 * known: base score, re-rank, budget, blocks. `ranking` may come from a cache (see rankingKey).
 */
export function rankPreview(
  eligible: Pick<EligibleSources, 'excluded'>,
  { kept, merged }: { kept: readonly RawEntry[]; merged: readonly MergedDuplicate[] },
  ctx: PreviewContext,
  t: KnowledgeThresholds,
  ranking: BaseRanking = rankByBase(kept, rankingBasis(ctx)),
): InjectionPreview {
  const budget = budgetRegime(ctx.headroomPercent, t);
  const excluded = eligible.excluded;
  const categories = phaseCategories(ctx.phase);
  const windowSize = Math.min(ranking.order.length, Math.max(WIDE_WINDOW, t.max_inject_count));
  const window = Array.from({ length: windowSize }, (_, k) => ranking.order[k]!).map((i) => ({ entry: kept[i]!, base: baseScore(kept[i]!, ctx.phase, ctx.projectName, categories) }));
  const rescored = window
    .map((item) => {
      const directive = directiveScore(item.entry, ctx);
      return { ...item, directive, contextual: contextualScore(item.entry, item.base.base, directive, t.directive_min_confidence) };
    })
    .sort((a, b) => b.contextual.final - a.contextual.final);

  const isCriticalMatch = (item: (typeof rescored)[number]) =>
    item.entry.directive_priority === 'critical' && (item.directive.triggerHit || item.directive.toolHit || item.directive.agentHit);
  const ordered = [...rescored.filter(isCriticalMatch), ...rescored.filter((item) => !isCriticalMatch(item))];
  const topIds = new Set(ordered.slice(0, t.max_inject_count).map((item) => entryId(item.entry)));
  const selected = ordered.filter((item) => topIds.has(entryId(item.entry)) && item.base.confidence >= HIGH_CONFIDENCE_FLOOR);

  const skipped = budget.regime === 'skipped';
  const directiveBudget = Math.floor(budget.effectiveBudget * DIRECTIVE_BUDGET_SHARE);
  const lessonBudget = Math.floor(budget.effectiveBudget * LESSON_BUDGET_SHARE);
  const directiveEntries = selected.map((item) => item.entry).filter(isDirectiveEntry);
  const directives = skipped ? { text: null, includedIds: [], cutIds: directiveEntries.map(entryId) } : buildDirectiveBlock(directiveEntries, directiveBudget, t.max_lesson_display_chars);
  const lessons = skipped
    ? { text: null, includedIds: [], cutIds: selected.map((item) => entryId(item.entry)) }
    : buildLessonBlock(selected.map((item) => item.entry), lessonBudget, t.max_lesson_display_chars, ctx.projectName);
  const inDirectives = new Set(directives.includedIds);
  const inLessons = new Set(lessons.includedIds);
  const selectedIds = new Set(selected.map((item) => entryId(item.entry)));

  const lines: PreviewLine[] = ordered.map((item, index) => {
    const id = entryId(item.entry);
    const isSelected = selectedIds.has(id);
    return {
      id,
      tier: str(item.entry.tier) ?? 'swarm',
      lesson: entryLesson(item.entry),
      priority: str(item.entry.directive_priority) ?? null,
      confidence: item.base.confidence,
      rank: index + 1,
      pass: isCriticalMatch(item) ? 'critical_match' : 'score',
      baseScore: item.base,
      directive: item.directive,
      contextual: item.contextual,
      selection: isSelected ? 'selected' : topIds.has(id) ? 'below_confidence_floor' : 'beyond_max_inject_count',
      directiveBlock: !isSelected ? null : !isDirectiveEntry(item.entry) ? 'not_a_directive' : inDirectives.has(id) ? 'included' : 'cut_by_budget',
      lessonBlock: !isSelected ? null : inLessons.has(id) ? 'included' : 'cut_by_budget',
    };
  });

  return {
    regime: budget.regime,
    headroomChars: budget.headroomChars,
    modelLimitChars: MODEL_LIMIT_CHARS,
    minInjectChars: budget.minInjectChars,
    effectiveBudget: budget.effectiveBudget,
    directiveBudget,
    lessonBudget,
    maxInjectCount: t.max_inject_count,
    lines,
    merged: merged.slice(0, MAX_MERGED_LISTED),
    mergedCount: merged.length,
    excluded: [...excluded.entries()].map(([reason, bucket]) => ({ reason, ...bucket })),
    directiveBlock: directives.text,
    lessonBlock: lessons.text,
    directiveIds: directives.includedIds,
    consideredCount: kept.length,
    rules: PREVIEW_RULES,
  };
}

/** What the preview assumes, shown next to the result so nobody mistakes it for a trace. */
const PREVIEW_RULES: string[] = [
  'Only the architect receives the block; agent and tool stand for the decision point (applies_to_agents / applies_to_tools).',
  `Excluded: inactive statuses (archived, quarantined, quarantined_unactionable), scopes outside scope_filter, retracted lessons.`,
  `Tiers merged hive-first; a swarm lesson repeating a kept lesson, or a near-duplicate (word-bigram Jaccard ≥ ${READER_DEDUP_THRESHOLD}) of a hive or earlier swarm lesson, is dropped.`,
  'Base score = 0.40·category(phase) + 0.35·confidence + 0.25·keywords + 0.05 hive − 0.05 same-project hive, clamped to [0,1]; ties go to the newer entry.',
  `The top ${WIDE_WINDOW} by base score are re-ranked: + 0.5 trigger hit + 0.35 tool hit + 0.25 agent hit + priority (critical 0.4, high 0.2, medium 0.1), capped at 1; + 0.25 when confidence ≥ directive_min_confidence and tool or agent hit; + 0.05 with a generated skill; final capped at 1.`,
  'Critical directives that hit the context go first, then the rest by final score, up to max_inject_count.',
  `Only entries with confidence ≥ ${HIGH_CONFIDENCE_FLOOR} are injected.`,
  'Headroom ≥ 60 % → full inject_char_budget, ≥ 20 % → half, below → quarter; skipped below context_budget_threshold chars (300 when unset).',
  `The directive block gets ${DIRECTIVE_BUDGET_SHARE * 100} % of the budget and the lesson list ${LESSON_BUDGET_SHARE * 100} %; whole records are cut from the end; lessons are cut to max_lesson_display_chars.`,
];
