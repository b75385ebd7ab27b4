import type { DirectiveRow } from '../../../shared/contract/knowledge';
import { strList } from '../rules/entry-fields';

/**
 * Parts of directive rows shared between rows that have them equal. The model holds a row per
 * directive (100k at most) and most of a row's heap was sentences repeated from row to row: the
 * maturity gate's checks and reasons, outcome funnels, expiry markers, empty lists. Equal parts
 * are now one frozen object, so a row costs its own numbers and little else. Rows are values:
 * nothing changes a row once made (frozen parts would say so at once).
 *
 * Each table is bounded: past `MAX_KEYS` distinct parts it starts over, which only loses sharing.
 */
const MAX_KEYS = 50_000;

class Shared<T extends object> {
  private table = new Map<string, T>();

  of(key: string, make: () => T): T {
    let part = this.table.get(key);
    if (part === undefined) {
      if (this.table.size >= MAX_KEYS) this.table = new Map();
      this.table.set(key, (part = Object.freeze(make())));
    }
    return part;
  }
}

type Maturity = DirectiveRow['maturity'];
type Check = Maturity['checks'][number];
type Expiry = NonNullable<DirectiveRow['expiry']>;

const checks = new Shared<Check>();
const lists = new Shared<string[]>();
const expiries = new Shared<Expiry>();
const funnels = new Shared<DirectiveRow['funnel']>();
const SEP = '\u0000';

const EMPTY: string[] = Object.freeze([]) as unknown as string[];

/** A list of strings: the entry's own array when it holds strings only (no copy), else the strings in it. */
export function stringList(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0) return EMPTY;
  return value.every((v) => typeof v === 'string') ? (value as string[]) : strList(value);
}

/** An empty list shared by every row that has one. */
export const emptyList = <T>(list: T[]): T[] => (list.length === 0 ? (EMPTY as unknown as T[]) : list);

const verdicts = new Shared<Maturity>();

/**
 * The verdict shared whole with equal ones of other rows (a verdict is a dozen fields and a list
 * of checks: about 200 bytes a row, and most rows repeat one of a few thousand), its checks and
 * reasons with equal ones of other verdicts.
 */
export function sharedMaturity(verdict: Maturity): Maturity {
  const checkKeys = verdict.checks.map((c) => `${c.rule}${SEP}${c.passed}${SEP}${c.detail}`);
  const reasonsKey = verdict.reasons.join(SEP);
  const make = () => ({
    ...verdict,
    reasons: verdict.reasons.length === 0 ? EMPTY : lists.of(reasonsKey, () => [...verdict.reasons]),
    checks: verdict.checks.map((c, i) => checks.of(checkKeys[i]!, () => ({ ...c }))),
  });
  // The key names every field of the contract's verdict: one with more is kept as it is.
  if (Object.keys(verdict).length !== VERDICT_FIELDS) return make();
  const key = [
    verdict.eligible,
    verdict.decidedBy,
    numberKey(verdict.signal),
    numberKey(verdict.confidence),
    numberKey(verdict.distinctPhases),
    verdict.confirmationsFrom,
    verdict.priority,
    verdict.hasSkill,
    verdict.reasons.length,
    reasonsKey,
    ...checkKeys,
  ].join(SEP);
  return verdicts.of(key, make);
}

const VERDICT_FIELDS = 10;
/** String(-0) is "0", but -0 and 0 are told apart by a deep equality. */
const numberKey = (n: number): string => (Object.is(n, -0) ? '-0' : String(n));

/** The outcome funnel, shared with equal ones (most directives have few or no outcomes yet). */
export function sharedFunnel(funnel: DirectiveRow['funnel']): DirectiveRow['funnel'] {
  return funnels.of(JSON.stringify(Object.values(funnel)), () => ({ ...funnel }));
}

export function sharedExpiry(expiry: DirectiveRow['expiry']): DirectiveRow['expiry'] {
  if (!expiry) return expiry;
  return expiries.of(`${expiry.action}${SEP}${expiry.phasesLeft}${SEP}${expiry.phasesAlive}${SEP}${expiry.limit}${SEP}${expiry.limitSource}`, () => ({ ...expiry }));
}
