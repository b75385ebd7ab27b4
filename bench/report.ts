/** What every benchmark section writes into: figures with units and goals, printed together at the end. */
export interface BenchReport {
  section(name: string): void;
  figure(name: string, value: number, unit: string, goal?: string): void;
  note(text: string): void;
}

interface Figure {
  section: string;
  name: string;
  value: number;
  unit: string;
  goal?: string;
}

export function createReport(log: (line: string) => void = console.log): BenchReport & { figures: Figure[]; notes: string[] } {
  let current = '(none)';
  const figures: Figure[] = [];
  const notes: string[] = [];
  return {
    figures,
    notes,
    section(name) {
      current = name;
      log(`\n## ${name}`);
    },
    figure(name, value, unit, goal) {
      figures.push({ section: current, name, value, unit, ...(goal ? { goal } : {}) });
      const shown = Number.isInteger(value) ? String(value) : value.toPrecision(4);
      log(`  ${name}: ${shown} ${unit}${goal ? `   (goal: ${goal})` : ''}`);
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
