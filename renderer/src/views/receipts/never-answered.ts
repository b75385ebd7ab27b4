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
