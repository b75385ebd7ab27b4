import { distinctPhases, distinctProjects, entryConfidence, entryPriority, str, type RawEntry } from './entry-fields';
import { outcomeSignal, type EffectiveOutcomes } from './counters';
import type { KnowledgeThresholds } from './thresholds';

/**
 * The skill compiler's maturity gate, as the plugin documents it (docs/knowledge.md,
 * "Maturity Gate"), evaluated on the effective counters:
 *   1. a negative outcome signal rejects;
 *   2. a strong outcome record (applied ≥ 3 or succeeded-after-shown ≥ 3) with a positive
 *      signal passes, bypassing the remaining checks;
 *   3. high/critical directives take a fast track: ≥ 1 distinct phase and confidence ≥ 0.60;
 *   4. otherwise confidence ≥ min_skill_confidence AND distinct phases ≥ min_skill_confirmations.
 */
const STRONG_RECORD_MIN = 3;
const FAST_TRACK_MIN_CONFIDENCE = 0.6;
const FAST_TRACK_MIN_PHASES = 1;

type GateRule = 'negative_signal' | 'strong_record' | 'fast_track' | 'confidence' | 'confirmations';

interface GateCheck {
  rule: GateRule;
  passed: boolean;
  /** One operator-readable sentence with the numbers that decided it. */
  detail: string;
}

interface MaturityVerdict {
  eligible: boolean;
  /** The route that decided it. */
  decidedBy: 'negative_signal' | 'strong_record' | 'fast_track' | 'standard';
  /** Why it is (not) eligible, most decisive first. */
  reasons: string[];
  checks: GateCheck[];
  signal: number;
  confidence: number;
  distinctPhases: number;
  /** Where the confirmation count comes from: phase numbers (swarm) or projects (hive records without a phase). */
  confirmationsFrom: 'phases' | 'projects';
  priority: 'low' | 'medium' | 'high' | 'critical';
  hasSkill: boolean;
}

const fmt = (value: number) => value.toFixed(2);

export function maturityVerdict(
  entry: RawEntry,
  o: EffectiveOutcomes,
  t: Pick<KnowledgeThresholds, 'min_skill_confidence' | 'min_skill_confirmations'>,
): MaturityVerdict {
  const signal = outcomeSignal(o);
  const confidence = entryConfidence(entry);
  const priority = entryPriority(entry);
  const phases = distinctPhases(entry).length;
  // Hive confirmations are per project and usually carry no phase number; count those instead.
  const useProjects = phases === 0 && entry.tier === 'hive';
  const confirmations = useProjects ? distinctProjects(entry).length : phases;
  const unit = useProjects ? 'project' : 'phase';
  const plural = (n: number) => `${n} distinct ${unit}${n === 1 ? '' : 's'}`;
  const base = {
    signal,
    confidence,
    distinctPhases: confirmations,
    confirmationsFrom: useProjects ? ('projects' as const) : ('phases' as const),
    priority,
    hasSkill: Boolean(str(entry.generated_skill_path)),
  };
  const checks: GateCheck[] = [];

  const negative = signal < 0;
  checks.push({
    rule: 'negative_signal',
    passed: !negative,
    detail: `outcome signal ${fmt(signal)} ${negative ? '< 0: negatively evidenced' : '≥ 0'}`,
  });
  if (negative) {
    return { ...base, eligible: false, decidedBy: 'negative_signal', reasons: [`Rejected: negative outcome signal (${fmt(signal)}).`], checks };
  }

  const strongCount = Math.max(o.applied_explicit_count, o.succeeded_after_shown_count);
  const strong = strongCount >= STRONG_RECORD_MIN && signal > 0;
  checks.push({
    rule: 'strong_record',
    passed: strong,
    detail: `applied ${o.applied_explicit_count}, succeeded after shown ${o.succeeded_after_shown_count} (needs one ≥ ${STRONG_RECORD_MIN} with signal > 0)`,
  });
  if (strong) {
    return { ...base, eligible: true, decidedBy: 'strong_record', reasons: ['Eligible: strong outcome record with a positive signal bypasses the other checks.'], checks };
  }

  const fastTrackPriority = priority === 'high' || priority === 'critical';
  if (fastTrackPriority) {
    const ok = confirmations >= FAST_TRACK_MIN_PHASES && confidence >= FAST_TRACK_MIN_CONFIDENCE;
    checks.push({
      rule: 'fast_track',
      passed: ok,
      detail: `${priority} priority: ${plural(confirmations)} (needs ≥ ${FAST_TRACK_MIN_PHASES}), confidence ${fmt(confidence)} (needs ≥ ${fmt(FAST_TRACK_MIN_CONFIDENCE)})`,
    });
    if (ok) return { ...base, eligible: true, decidedBy: 'fast_track', reasons: [`Eligible: ${priority}-priority fast track.`], checks };
  }

  const confidenceOk = confidence >= t.min_skill_confidence;
  const confirmationsOk = confirmations >= t.min_skill_confirmations;
  checks.push({
    rule: 'confidence',
    passed: confidenceOk,
    detail: `confidence ${fmt(confidence)} (needs ≥ min_skill_confidence ${fmt(t.min_skill_confidence)})`,
  });
  checks.push({
    rule: 'confirmations',
    passed: confirmationsOk,
    detail: `${plural(confirmations)} (needs ≥ min_skill_confirmations ${t.min_skill_confirmations})`,
  });
  const reasons: string[] = [];
  if (!confidenceOk) reasons.push(`Confidence ${fmt(confidence)} is below min_skill_confidence ${fmt(t.min_skill_confidence)}.`);
  if (!confirmationsOk) reasons.push(`Only ${plural(confirmations)} confirmed it; min_skill_confirmations is ${t.min_skill_confirmations}.`);
  if (fastTrackPriority && reasons.length > 0) {
    reasons.push(`The ${priority}-priority fast track needs ≥ ${FAST_TRACK_MIN_PHASES} ${unit} and confidence ≥ ${fmt(FAST_TRACK_MIN_CONFIDENCE)}.`);
  }
  if (!strong && reasons.length > 0 && strongCount > 0) {
    reasons.push(`No strong outcome record yet (best count ${strongCount} of ${STRONG_RECORD_MIN}${signal > 0 ? '' : ', and the signal is not positive'}).`);
  }
  const eligible = confidenceOk && confirmationsOk;
  return {
    ...base,
    eligible,
    decidedBy: 'standard',
    reasons: eligible ? ['Eligible: confidence and confirmations meet the thresholds.'] : reasons,
    checks,
  };
}
