/** What every benchmark section writes into: figures with units and goals, printed together at the end. */
export interface BenchReport {
  section(name: string): void;
  /** `better` says which way is an improvement when unit and goal do not (see betterOf). */
  figure(name: string, value: number, unit: string, goal?: string, better?: Better): void;
  /** A count the section's other figures rest on (e.g. denials measured): 0 fails the run. */
  count(name: string, value: number, unit: string, goal?: string): void;
  note(text: string): void;
}

/** What a section may be told from the command line. */
export interface BenchOptions {
  /** `--sizes 1000,10000,100000`: the sizes of the cost-curve sections. */
  sizes?: number[];
}

export type Better = 'higher' | 'lower';

export interface Figure {
  section: string;
  name: string;
  value: number;
  unit: string;
  goal?: string;
  better?: Better;
  /** When it was measured (kept in .bench/results.json, where figures of earlier runs stay until measured again). */
  at?: string;
}

/**
 * What .bench/results.json keeps after a run: this run's figures, dated, and every figure of the
 * earlier results this run did not measure, with its own date. Running one section therefore never
 * drops the others' figures, and the next run of any section still finds its own last figures.
 */
export function mergeResults(earlier: readonly Figure[], measured: readonly Figure[], at: string): Figure[] {
  const key = (f: Figure) => `${f.section}\u0000${f.name}`;
  const now = new Set(measured.map(key));
  return [...earlier.filter((f) => !now.has(key(f))), ...measured.map((f) => ({ ...f, at }))];
}

/** A section that measured nothing: its figures would be NaN or rest on zero samples. */
export interface BenchFailure {
  section: string;
  problem: string;
}

/** The results a run compares itself with: the quiet-machine reference, or else the previous run. */
export interface Baseline {
  label: string;
  at: string;
  figures: Figure[];
}

/** A figure against the same figure of the baseline. `worse` is the fraction by which it got worse (negative: better). */
export interface Change {
  before: number;
  /** When the earlier figure was measured, where the results say. */
  beforeAt?: string;
  /** value / before − 1. */
  change: number;
  worse: number | null;
  flagged: boolean;
}

/** More than this much worse than the baseline is flagged. */
export const REGRESSION_THRESHOLD = 0.25;

/**
 * Which way a figure improves: said explicitly, else by its goal (`≥ …` higher, `≤ …`/`< …`
 * lower), else by its unit (rates such as MB/s and "× faster" higher; times, sizes and shares
 * lower). A bare ratio (`×`) without a goal says nothing: it is compared but never flagged.
 */
export function betterOf(unit: string, goal?: string, explicit?: Better): Better | null {
  if (explicit) return explicit;
  const g = goal?.trim() ?? '';
  if (/^(≥|>)/.test(g)) return 'higher';
  if (/^(≤|<)/.test(g)) return 'lower';
  if (/\/s$/.test(unit) || unit === '× faster') return 'higher';
  if (['ms', 's', 'MB', 'MiB', 'GB', '%', 'KB', 'KiB', 'B'].includes(unit)) return 'lower';
  return null;
}

export function changeAgainst(figure: Figure, baseline: readonly Figure[]): Change | null {
  const before = baseline.find((f) => f.section === figure.section && f.name === figure.name);
  if (!before || !Number.isFinite(before.value) || !Number.isFinite(figure.value) || before.value === 0) return null;
  const change = figure.value / before.value - 1;
  const better = betterOf(figure.unit, figure.goal, figure.better);
  const worse = better === 'higher' ? (before.value - figure.value) / before.value : better === 'lower' ? change : null;
  return { before: before.value, ...(before.at ? { beforeAt: before.at } : {}), change, worse, flagged: worse !== null && worse > REGRESSION_THRESHOLD };
}

function describeChange(change: Change, label: string): string {
  const percent = `${change.change >= 0 ? '+' : '−'}${Math.abs(change.change * 100).toFixed(1)} %`;
  if (change.flagged) return `[${percent} vs ${label}: ${((change.worse as number) * 100).toFixed(0)} % WORSE — REGRESSION]`;
  return `[${percent} vs ${label}${change.worse === null ? '' : change.worse > 0 ? ', worse' : change.worse < 0 ? ', better' : ''}]`;
}

const shown = (value: number) => (Number.isInteger(value) || !Number.isFinite(value) ? String(value) : value.toPrecision(4));

export interface Regression {
  figure: Figure;
  change: Change;
  /** What the figure was compared with, as its line said it (with the earlier figure's own date). */
  against: string;
}

export function createReport(
  log: (line: string) => void = console.log,
  baseline: Baseline | null = null,
): BenchReport & { figures: Figure[]; notes: string[]; failures: BenchFailure[]; regressions: Regression[] } {
  let current = '(none)';
  const figures: Figure[] = [];
  const notes: string[] = [];
  const failures: BenchFailure[] = [];
  const regressions: Regression[] = [];
  const figure = (name: string, value: number, unit: string, goal?: string, better?: Better) => {
    const entry: Figure = { section: current, name, value, unit, ...(goal ? { goal } : {}), ...(better ? { better } : {}) };
    figures.push(entry);
    if (!Number.isFinite(value)) failures.push({ section: current, problem: `${name} is ${value} (nothing was measured)` });
    const change = baseline ? changeAgainst(entry, baseline.figures) : null;
    // A figure kept from an older run than the baseline's own says its date.
    const label = change?.beforeAt && baseline && change.beforeAt !== baseline.at ? `${baseline.label.replace(/ \(.*\)$/, '')} (${change.beforeAt})` : baseline?.label ?? '';
    if (change?.flagged) regressions.push({ figure: entry, change, against: label });
    const against = baseline ? `   ${change ? describeChange(change, label) : `[new: not in ${baseline.label}]`}` : '';
    log(`  ${name}: ${shown(value)} ${unit}${goal ? `   (goal: ${goal})` : ''}${against}`);
  };
  return {
    figures,
    notes,
    failures,
    regressions,
    section(name) {
      current = name;
      log(`\n## ${name}`);
    },
    figure,
    count(name, value, unit, goal) {
      figure(name, value, unit, goal);
      if (value === 0) failures.push({ section: current, problem: `${name} is 0` });
    },
    note(text) {
      notes.push(`[${current}] ${text}`);
      log(`  · ${text}`);
    },
  };
}

/** p-th percentile (0–100) of a sample, nearest-rank. */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

/**
 * The growth exponent k of a cost curve (time ∝ nᵏ): the least-squares slope of ln(time) over
 * ln(n). NaN with fewer than two distinct sizes or any non-positive point.
 */
export function growthExponent(points: readonly { n: number; value: number }[]): number {
  if (points.some((p) => !(p.n > 0) || !(p.value > 0))) return Number.NaN;
  const xs = points.map((p) => Math.log(p.n));
  const ys = points.map((p) => Math.log(p.value));
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < xs.length; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
  }
  return sxx === 0 ? Number.NaN : sxy / sxx;
}

/**
 * The sizes of a cost curve, as its notes and exponents name them ("1,000 / 10,000 / 100,000").
 * A growth exponent is a figure of its size set: named with it, it meets only the same exponent
 * of an earlier run at the same sizes (an exponent over 1k / 3k is not a regression of one over
 * 1k / 10k / 100k).
 */
export function sizeSet(sizes: readonly number[]): string {
  return sizes.map((n) => n.toLocaleString('en')).join(' / ');
}

/** A growth exponent's figure name: what it fits, over which sizes. */
export function exponentName(what: string, sizes: readonly number[]): string {
  return `${what} over ${sizeSet(sizes)} entries`;
}

/** The run's verdict: one line per failing section, empty when every section measured something. */
export function failureLines(failures: readonly BenchFailure[]): string[] {
  return failures.map((f) => `FAILED section "${f.section}": ${f.problem}`);
}

/**
 * One line per figure more than REGRESSION_THRESHOLD worse than the baseline, against what its
 * figure line named: a figure kept from an older run says that run's date here too.
 */
export function regressionLines(regressions: readonly Regression[]): string[] {
  return regressions.map(
    ({ figure, change, against }) =>
      `REGRESSION in "${figure.section}": ${figure.name} ${shown(change.before)} → ${shown(figure.value)} ${figure.unit} (${((change.worse as number) * 100).toFixed(0)} % worse than ${against})`,
  );
}
