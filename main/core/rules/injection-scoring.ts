import { entryCategory, entryConfidence, entryStatus, entryTags, str, strList, type RawEntry } from './entry-fields';

/**
 * The plugin's ranking rules for architect injection (opencode-swarm `knowledge-reader.ts`:
 * `readMergedKnowledge` base score, `scoreDirectiveAgainstContext` and `readContextualKnowledge`
 * re-rank), restated as pure functions so the console can show every component.
 */

/** Phase wording → the categories that phase favours; the first matching rule wins. */
const PHASE_CATEGORY_RULES: { pattern: RegExp; categories: string[] }[] = [
  { pattern: /\b(?:test|qa|quality|verification|validation)\b/, categories: ['testing', 'debugging'] },
  { pattern: /\b(?:implement|build|develop|coding|code)\b/, categories: ['tooling', 'architecture', 'debugging'] },
  { pattern: /\b(?:integrat|deploy|ci|cd|release|publish)\b/, categories: ['integration', 'tooling', 'performance'] },
  { pattern: /\b(?:plan|design|architect|spec|requirement)\b/, categories: ['architecture', 'process'] },
  { pattern: /\b(?:review|refactor|cleanup|polish|optimi)\b/, categories: ['performance', 'architecture', 'process'] },
  { pattern: /\b(?:secur|audit|harden|compliance)\b/, categories: ['security', 'testing'] },
  { pattern: /\b(?:setup|config|scaffold|init|bootstrap)\b/, categories: ['tooling', 'other'] },
  { pattern: /\b(?:doc|readme|changelog)\b/, categories: ['process', 'tooling'] },
];
const DEFAULT_PHASE_CATEGORIES = ['process', 'tooling'];

/** Every category list a phase can map to (each rule's, then the default). */
export const PHASE_CATEGORY_SETS: readonly (readonly string[])[] = [...PHASE_CATEGORY_RULES.map((rule) => rule.categories), DEFAULT_PHASE_CATEGORIES];

export function phaseCategories(phase: string): string[] {
  const lower = phase.toLowerCase();
  return PHASE_CATEGORY_RULES.find((rule) => rule.pattern.test(lower))?.categories ?? DEFAULT_PHASE_CATEGORIES;
}

const BASE_WEIGHTS = { category: 0.4, confidence: 0.35, keywords: 0.25 } as const;
const HIVE_TIER_BOOST = 0.05;
const SAME_PROJECT_HIVE_PENALTY = -0.05;

export interface BaseScore {
  category: number;
  confidence: number;
  keywords: number;
  tierBoost: number;
  sameProjectPenalty: number;
  /** Weighted sum, clamped to [0, 1]. */
  base: number;
}

/**
 * The injector passes no tech stack, so the keyword component is the plugin's neutral 0.5 for
 * untagged entries and 0 for tagged ones.
 */
export function baseScore(entry: RawEntry, phase: string, projectName: string | undefined, categories: readonly string[] = phaseCategories(phase)): BaseScore {
  const entryCat = entryCategory(entry);
  const category = phase ? (categories.includes(entryCat) ? 1 : entryCat === 'process' ? 0.5 : 0) : 0.5;
  const confidence = entryConfidence(entry);
  const keywords = entryTags(entry).length === 0 ? 0.5 : 0;
  const isHive = entry.tier === 'hive';
  const tierBoost = isHive ? HIVE_TIER_BOOST : 0;
  const sameProject = isHive && !!projectName && str(entry.source_project) === projectName;
  const sameProjectPenalty = sameProject ? SAME_PROJECT_HIVE_PENALTY : 0;
  const sum =
    category * BASE_WEIGHTS.category + confidence * BASE_WEIGHTS.confidence + keywords * BASE_WEIGHTS.keywords + tierBoost + sameProjectPenalty;
  return { category, confidence, keywords, tierBoost, sameProjectPenalty, base: Math.min(1, Math.max(0, sum)) };
}

export interface DecisionContext {
  agent?: string | undefined;
  tool?: string | undefined;
  filePaths?: readonly string[] | undefined;
  /** Free text standing for the task title/description and the last user message. */
  taskText?: string | undefined;
}

const DIRECTIVE_WEIGHTS = { trigger: 0.5, tool: 0.35, agent: 0.25 } as const;
/** Only an explicitly set priority scores; an absent one adds nothing here (it still renders as `medium`). */
const PRIORITY_SCORE: Record<string, number> = { critical: 0.4, high: 0.2, medium: 0.1 };
const CONFIDENT_MATCH_BOOST = 0.25;
const SKILL_BOOST = 0.05;

export interface DirectiveScore {
  triggerHit: boolean;
  toolHit: boolean;
  agentHit: boolean;
  /** Which trigger matched, for the explanation. */
  matchedTrigger: string | null;
  priority: number;
  /** Sum of the hits and the priority score, capped at 1. */
  score: number;
}

const lc = (value: string | undefined) => (value ?? '').toLowerCase();

/** The words of the decision point a trigger is looked up in (substring match, case-insensitive). */
function contextHaystack(ctx: DecisionContext): string[] {
  return [ctx.taskText, ctx.tool, ctx.agent, ...(ctx.filePaths ?? [])].filter((part): part is string => !!part).map(lc);
}

export function directiveScore(entry: RawEntry, ctx: DecisionContext): DirectiveScore {
  const haystack = contextHaystack(ctx);
  const matchedTrigger = strList(entry.triggers).find((trigger) => haystack.some((text) => text.includes(lc(trigger)))) ?? null;
  const tool = lc(ctx.tool);
  const agent = lc(ctx.agent);
  const toolHit = !!tool && strList(entry.applies_to_tools).some((t) => lc(t) === tool);
  const agentHit = !!agent && strList(entry.applies_to_agents).some((a) => lc(a) === agent);
  const priority = PRIORITY_SCORE[str(entry.directive_priority) ?? ''] ?? 0;
  let score = priority;
  if (matchedTrigger !== null) score += DIRECTIVE_WEIGHTS.trigger;
  if (toolHit) score += DIRECTIVE_WEIGHTS.tool;
  if (agentHit) score += DIRECTIVE_WEIGHTS.agent;
  return { triggerHit: matchedTrigger !== null, toolHit, agentHit, matchedTrigger, priority, score: Math.min(1, score) };
}

export interface ContextualScore {
  confidentMatchBoost: number;
  skillBoost: number;
  final: number;
}

export function contextualScore(entry: RawEntry, base: number, ds: DirectiveScore, directiveMinConfidence: number): ContextualScore {
  const confidentMatchBoost = entryConfidence(entry) >= directiveMinConfidence && (ds.toolHit || ds.agentHit) ? CONFIDENT_MATCH_BOOST : 0;
  const skillBoost = str(entry.generated_skill_path) && entryStatus(entry) !== 'archived' ? SKILL_BOOST : 0;
  return { confidentMatchBoost, skillBoost, final: Math.min(1, base + ds.score + confidentMatchBoost + skillBoost) };
}

/** Entries that qualify for the structured directive block (the rest appear only as lessons). */
export function isDirectiveEntry(entry: RawEntry): boolean {
  const priority = str(entry.directive_priority);
  return (
    strList(entry.triggers).length > 0 ||
    strList(entry.required_actions).length > 0 ||
    strList(entry.forbidden_actions).length > 0 ||
    priority === 'critical' ||
    priority === 'high' ||
    !!str(entry.generated_skill_path)
  );
}
