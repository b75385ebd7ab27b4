/** What every benchmark section writes into: figures with units and goals, printed together at the end. */
export interface BenchReport {
  section(name: string): void;
  figure(name: string, value: number, unit: string, goal?: string): void;
  /** A count the section's other figures rest on (e.g. denials measured): 0 fails the run. */
  count(name: string, value: number, unit: string, goal?: string): void;
  note(text: string): void;
}

interface Figure {
  section: string;
  name: string;
  value: number;
  unit: string;
  goal?: string;
}

/** A section that measured nothing: its figures would be NaN or rest on zero samples. */
export interface BenchFailure {
  section: string;
  problem: string;
}

export function createReport(log: (line: string) => void = console.log): BenchReport & { figures: Figure[]; notes: string[]; failures: BenchFailure[] } {
  let current = '(none)';
  const figures: Figure[] = [];
  const notes: string[] = [];
  const failures: BenchFailure[] = [];
  const figure = (name: string, value: number, unit: string, goal?: string) => {
    figures.push({ section: current, name, value, unit, ...(goal ? { goal } : {}) });
    if (!Number.isFinite(value)) failures.push({ section: current, problem: `${name} is ${value} (nothing was measured)` });
    const shown = Number.isInteger(value) || !Number.isFinite(value) ? String(value) : value.toPrecision(4);
    log(`  ${name}: ${shown} ${unit}${goal ? `   (goal: ${goal})` : ''}`);
  };
  return {
    figures,
    notes,
    failures,
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

/** The run's verdict: one line per failing section, empty when every section measured something. */
export function failureLines(failures: readonly BenchFailure[]): string[] {
  return failures.map((f) => `FAILED section "${f.section}": ${f.problem}`);
}
