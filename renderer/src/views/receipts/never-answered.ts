import type { Obligation } from '../../../../shared/contract/receipts';

export interface NeverAnswered {
  entryId: string;
  priority: string | null;
  enforcement: string | null;
  displays: number;
  firstShown: string | null;
  lastShown: string | null;
  gateWarnings: number;
  derived: boolean;
}

/**
 * The operator's question "which critical directives were shown and never answered?": directives
 * with at least one ack-required display and no answer to any of them (a gate release is not an
 * answer). Most displays first.
 */
export function neverAnswered(obligations: readonly Obligation[]): NeverAnswered[] {
  const byEntry = new Map<string, Obligation[]>();
  for (const o of obligations) byEntry.set(o.entryId, [...(byEntry.get(o.entryId) ?? []), o]);
  const out: NeverAnswered[] = [];
  for (const [entryId, list] of byEntry) {
    if (list.some((o) => o.status === 'answered')) continue;
    const shown = list.map((o) => o.displayedAt).filter((t): t is string => !!t).sort();
    out.push({
      entryId,
      priority: list[0]?.priority ?? null,
      enforcement: list.find((o) => o.enforcement)?.enforcement ?? null,
      displays: list.length,
      firstShown: shown[0] ?? null,
      lastShown: shown.at(-1) ?? null,
      gateWarnings: Math.max(0, ...list.map((o) => o.gateWarnings)),
      derived: list.some((o) => o.derived),
    });
  }
  return out.sort((a, b) => b.displays - a.displays || a.entryId.localeCompare(b.entryId));
}

/**
 * The Obligations panel's two sentences (issue 19 item 2). The counts are per display, the
 * never-answered list per directive: both may be true at once (a directive answered on one display
 * and left open on another), so each sentence says which it counts, and the per-directive one
 * accounts for the open displays of directives that were answered elsewhere — never two sentences
 * that read as a contradiction.
 */
export function obligationSentences(counts: { open: number; released: number; answered: number; releasedThenAnswered: number }, obligations: readonly Obligation[]): { perDisplay: string; perDirective: string } {
  const displays = counts.open + counts.released + counts.answered;
  const n = (value: number, one: string, many = `${one}s`) => `${value} ${value === 1 ? one : many}`;
  const perDisplay =
    `Per display: ${n(displays, 'display')} of ack-required directives — ${counts.open} still open (no answer to that display), ` +
    `${counts.released} released by the gate and never answered (a release is nonterminal), ${counts.answered} answered by the agent` +
    `${counts.releasedThenAnswered ? ` (${counts.releasedThenAnswered} of them only after a gate release)` : ''}.`;
  const never = neverAnswered(obligations);
  const neverOpen = obligations.filter((o) => o.status === 'open' && never.some((d) => d.entryId === o.entryId)).length;
  const openElsewhere = counts.open - neverOpen;
  const neverIds = new Set(never.map((d) => d.entryId));
  const elsewhereDirectives = new Set(obligations.filter((o) => o.status === 'open' && !neverIds.has(o.entryId)).map((o) => o.entryId)).size;
  const rest = openElsewhere > 0 ? ` ${n(openElsewhere, 'open display belongs', 'open displays belong')} to ${elsewhereDirectives === 1 ? 'a directive' : `${elsewhereDirectives} directives`} answered on another display.` : '';
  const perDirective = never.length
    ? `Per directive: ${n(never.length, 'critical directive was', 'critical directives were')} shown and never answered on any display.${rest}`
    : `Per directive: every critical directive that was shown got an answer to at least one of its displays.${rest}`;
  return { perDisplay, perDirective };
}
