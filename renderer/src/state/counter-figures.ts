import type { DirectiveRow } from '../../../shared/contract/knowledge';
import type { FunnelCounts } from '../../../shared/contract/receipts';
import { glossary } from './glossary';

/**
 * The figures of one directive, in the groups every view shows them in (issue 19 item 1).
 *
 * - "Per display" comes from the receipts: displays → displays answered → by outcome. Each display
 *   counts once, so no stage can exceed the one before it (the core guarantees it; the test over
 *   both demo projects checks it).
 * - "The plugin's counters" are its effective counters (docs/plugin-formats.md#effective-counters),
 *   reproduced exactly. They come from different logs and count different things, so they are
 *   never drawn as a funnel (no arrows) and, wherever a later counter exceeds an earlier one, the
 *   figure carries one line saying why.
 *
 * A figure's `why` is filled only from REASONS below; a rise with no reason there leaves `why`
 * null, which `unexplainedRises` reports (and the tests fail on).
 */

export interface Figure {
  key: string;
  label: string;
  value: number;
  /** What the figure counts and which log it comes from (the tooltip). */
  rule: string;
  /** Set when the figure exceeds an earlier one it would be read against: one line saying why. */
  why: string | null;
  /** The earlier figures it exceeds (labels), for the explanation and the tests. */
  exceeds: string[];
}

export interface FigureGroup {
  id: 'displays' | 'phase-outcomes' | 'counters' | 'counter-outcomes';
  title: string;
  /** Where the group's numbers come from, said once above it. */
  source: string;
  figures: Figure[];
  /** A note beside the group that is not a stage (e.g. answers without a recorded display). */
  note: string | null;
}

type PluginCounters = DirectiveRow['funnel'];

const COUNTER_RULES = {
  shown_count: 'shown_count: +1 per id in each retrieved event of knowledge-events.jsonl, over knowledge-counter-baseline.json; a "shown" line of knowledge-application.jsonl counts only for an id never retrieved.',
  acknowledged_count: glossary('acknowledged').text,
  applied: 'applied_explicit_count: applied events in knowledge-events.jsonl plus applied markers in knowledge-application.jsonl; every repeat of a marker counts.',
  ignored: 'ignored_count: ignored events plus ignored markers, every repeat counted.',
  n_a: 'n_a_count: n_a events in knowledge-events.jsonl (the application log stores N/A as acknowledged).',
  contradicted: 'contradicted_count: contradicted events in knowledge-events.jsonl.',
  violated: 'violated_count: violated events plus violated markers, every repeat counted (the delegate ack collector records a missing ack as violated).',
  succeeded_after_shown: 'succeeded_after_shown_count: the stored counter PLUS the outcome events (added, not replaced), one per entry shown in a phase when it completes.',
  failed_after_shown: 'failed_after_shown_count: the stored counter plus the failure outcome events (added, not replaced).',
  partial_after_shown: 'partial_after_shown_count: partial outcome events (rollup only).',
} as const;

/**
 * Why a counter can exceed the one it is read against, keyed `<figure>><earlier figure>`. Worded
 * from docs/plugin-formats.md#counters and #effective-counters.
 */
const REASONS: Record<string, string> = {
  'acknowledged_count>shown_count': 'counted from other logs than shown_count (acknowledged events and N/A markers, each repeat again), not per display',
  'applied>acknowledged_count': 'acknowledged_count counts only explicit acknowledgement events; an applied answer never raises it',
  'ignored>acknowledged_count': 'acknowledged_count counts only explicit acknowledgement events; an ignored answer never raises it',
  'n_a>acknowledged_count': 'n_a events and acknowledged events are separate counters in knowledge-events.jsonl',
  'contradicted>acknowledged_count': 'acknowledged_count counts only explicit acknowledgement events; a contradiction never raises it',
  'violated>acknowledged_count': 'acknowledged_count counts only explicit acknowledgement events; a violation (or a missing ack the collector logs as violated) never raises it',
  'applied>shown_count': 'applied events and applied markers from both logs, every repeat of a marker counted each time — not one per display',
  'ignored>shown_count': 'ignored events and markers from both logs, every repeat counted — not one per display',
  'n_a>shown_count': 'n_a events are counted as they come, not one per display',
  'contradicted>shown_count': 'contradicted events are counted as they come, not one per display',
  'violated>shown_count': 'violated events and markers from both logs, every repeat counted — not one per display',
  'succeeded_after_shown>shown_count': 'the stored counter plus the outcome events (added, not replaced): one per phase completed after a display, not per display',
  'failed_after_shown>shown_count': 'the stored counter plus the outcome events (added, not replaced): one per phase that failed after a display, not per display',
  'partial_after_shown>shown_count': 'one per phase that ended partial after a display, not per display',
  'acknowledged>displays': 'the plugin’s acknowledged_count: explicit acknowledgement events and N/A markers from its logs, every repeat counted — not per display',
  'succeeded>displays': 'one per phase that completed after the directive was shown (outcome events, V2 phase close), not per display',
  'failed>displays': 'one per phase that failed after the directive was shown, not per display',
  'partial>displays': 'one per phase that ended partial after the directive was shown, not per display',
};

/** Builds a figure list: each figure is read against `against` (keys of earlier figures). */
function figures(specs: { key: string; label: string; value: number; rule: string; against: string[] }[]): Figure[] {
  const byKey = new Map<string, Figure>();
  const out: Figure[] = [];
  for (const spec of specs) {
    const exceeded = spec.against.map((k) => byKey.get(k)).filter((f): f is Figure => !!f && spec.value > f.value);
    const reasons = exceeded.map((f) => REASONS[`${spec.key}>${f.key}`]);
    const why = exceeded.length && reasons.every((r) => r) ? `more than ${exceeded.map((f) => `${f.label} (${f.value})`).join(' and ')}: ${[...new Set(reasons)].join('; ')}` : null;
    const figure: Figure = { key: spec.key, label: spec.label, value: spec.value, rule: spec.rule, why, exceeds: exceeded.map((f) => f.label) };
    byKey.set(spec.key, figure);
    out.push(figure);
  }
  return out;
}

const OUTCOMES: ['applied' | 'ignored' | 'n_a' | 'contradicted' | 'violated', string][] = [
  ['applied', 'applied'],
  ['ignored', 'ignored'],
  ['n_a', 'n/a'],
  ['contradicted', 'contradicted'],
  ['violated', 'violated'],
];

/** Per display, from the receipts: displays → answered → by outcome; then the phase outcomes after a display. */
export function displayGroups(c: FunnelCounts, acknowledged?: number | null): FigureGroup[] {
  const displays: FigureGroup = {
    id: 'displays',
    title: 'Per display (receipts)',
    source: 'from the receipt logs: each display once, each answered display once under the outcome the gate would use',
    figures: figures([
      { key: 'displays', label: 'displays', value: c.shown, rule: 'Displays the logs record (retrievals, V2 memberships, application-log "shown" lines for ids never retrieved).', against: [] },
      { key: 'answered', label: 'answered', value: c.answered, rule: glossary('answered').text, against: ['displays'] },
      ...OUTCOMES.map(([key, label]) => ({ key, label, value: c[key], rule: `Answered displays whose answer (the one the gate would use) was ${label}.`, against: ['answered'] })),
    ]),
    note: c.unlinkedAnswers > 0 ? `${c.unlinkedAnswers} more ${c.unlinkedAnswers === 1 ? 'answer names' : 'answers name'} no recorded display (counted apart)` : null,
  };
  const groups = [displays];
  if (acknowledged !== undefined && acknowledged !== null) {
    groups.push({
      id: 'counters',
      title: 'The plugin’s counter',
      source: 'its effective acknowledged_count (docs/plugin-formats.md#effective-counters)',
      figures: figures([
        { key: 'displays', label: 'displays', value: c.shown, rule: 'Displays the receipts record.', against: [] },
        { key: 'acknowledged', label: 'acknowledged', value: acknowledged, rule: COUNTER_RULES.acknowledged_count, against: ['displays'] },
      ]).slice(1),
      note: null,
    });
  }
  if (c.succeeded + c.failed + c.partial > 0) {
    groups.push({
      id: 'phase-outcomes',
      title: 'After a display',
      source: 'phase outcomes: legacy outcome events and V2 phase closes',
      figures: figures([
        { key: 'displays', label: 'displays', value: c.shown, rule: '', against: [] },
        { key: 'succeeded', label: 'succeeded', value: c.succeeded, rule: 'Phases that completed successfully after the directive was shown.', against: ['displays'] },
        { key: 'failed', label: 'failed', value: c.failed, rule: 'Phases that failed after the directive was shown.', against: ['displays'] },
        { key: 'partial', label: 'partial', value: c.partial, rule: 'Phases that ended partial after the directive was shown.', against: ['displays'] },
      ]).slice(1),
      note: null,
    });
  }
  return groups;
}

/** The plugin's effective counters, as it keeps them: never a funnel; each rise explained. */
export function counterGroups(f: PluginCounters): FigureGroup[] {
  const all = figures([
    { key: 'shown_count', label: 'shown', value: f.shown, rule: COUNTER_RULES.shown_count, against: [] },
    { key: 'acknowledged_count', label: 'acknowledged', value: f.acknowledged, rule: COUNTER_RULES.acknowledged_count, against: ['shown_count'] },
    ...OUTCOMES.map(([key, label]) => ({ key, label, value: f[key], rule: COUNTER_RULES[key], against: ['acknowledged_count', 'shown_count'] })),
    { key: 'succeeded_after_shown', label: 'succeeded after shown', value: f.succeeded_after_shown, rule: COUNTER_RULES.succeeded_after_shown, against: ['shown_count'] },
    { key: 'failed_after_shown', label: 'failed after shown', value: f.failed_after_shown, rule: COUNTER_RULES.failed_after_shown, against: ['shown_count'] },
    { key: 'partial_after_shown', label: 'partial after shown', value: f.partial_after_shown, rule: COUNTER_RULES.partial_after_shown, against: ['shown_count'] },
  ]);
  return [
    { id: 'counters', title: 'The plugin’s counters', source: 'its effective counters, from its own logs (docs/plugin-formats.md#effective-counters) — not per display', figures: all.slice(0, 7), note: null },
    { id: 'counter-outcomes', title: 'After shown (the plugin’s counters)', source: 'stored counters plus outcome events', figures: all.slice(7), note: null },
  ];
}

/** Figures that exceed an earlier figure they are read against and carry no explanation. Empty = every rise is explained. */
export function unexplainedRises(groups: readonly FigureGroup[]): string[] {
  return groups.flatMap((g) => g.figures.filter((f) => f.exceeds.length > 0 && !f.why).map((f) => `${g.id}: ${f.label} ${f.value} > ${f.exceeds.join(', ')}`));
}
