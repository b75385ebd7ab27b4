import { describe, expect, it } from 'vitest';
import { betterOf, changeAgainst, createReport, exponentName, failureLines, growthExponent, mergeResults, percentile, regressionLines, type Figure } from './report';

describe('bench report', () => {
  it('computes nearest-rank percentiles', () => {
    const sample = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sample, 50)).toBe(50);
    expect(percentile(sample, 95)).toBe(95);
    expect(percentile([3, 1, 2], 100)).toBe(3);
  });
  it('keeps figures with their section and goal', () => {
    const lines: string[] = [];
    const report = createReport((line) => lines.push(line));
    report.section('stores');
    report.figure('ingest', 12.5, 'MB/s', '≥ 0.5× JSON.parse');
    expect(report.figures).toEqual([{ section: 'stores', name: 'ingest', value: 12.5, unit: 'MB/s', goal: '≥ 0.5× JSON.parse' }]);
    expect(lines.at(-1)).toContain('12.50 MB/s');
  });
  it('fails a section whose count is 0 or whose figure is NaN, naming the section', () => {
    const report = createReport(() => undefined);
    report.section('Bridge: denial latency');
    report.count('denials measured', 0, 'denials', '100');
    report.figure('p50', percentile([], 50), 'ms');
    report.section('stores');
    report.count('entries read', 12, 'entries');
    report.figure('ingest', 3.5, 'MB/s');
    expect(failureLines(report.failures)).toEqual(['FAILED section "Bridge: denial latency": denials measured is 0', 'FAILED section "Bridge: denial latency": p50 is NaN (nothing was measured)']);
    const healthy = createReport(() => undefined);
    healthy.section('x');
    healthy.count('n', 3, 'items');
    healthy.figure('f', 1.5, 'ms');
    expect(healthy.failures).toEqual([]);
  });

  it('fits the growth exponent of a cost curve on log-log axes', () => {
    expect(growthExponent([{ n: 1_000, value: 3 }, { n: 10_000, value: 30 }, { n: 100_000, value: 300 }])).toBeCloseTo(1, 10);
    expect(growthExponent([1_000, 10_000, 100_000].map((n) => ({ n, value: 2e-6 * n ** 1.5 })))).toBeCloseTo(1.5, 10);
    expect(growthExponent([1_000, 10_000, 100_000].map((n) => ({ n, value: 7 })))).toBeCloseTo(0, 10);
    // Least squares, not the end points (whose slope is 1): x = log10 n = 0, 1, 3; y = 0, log10 20, 3;
    // slope = Σ(x−x̄)(y−ȳ) / Σ(x−x̄)² = 4.5663 / 4.6667 = 0.97850.
    expect(growthExponent([{ n: 1, value: 1 }, { n: 10, value: 20 }, { n: 1_000, value: 1_000 }])).toBeCloseTo(0.9785, 4);
    expect(growthExponent([{ n: 1_000, value: 1 }])).toBeNaN();
    expect(growthExponent([{ n: 1_000, value: 1 }, { n: 1_000, value: 2 }])).toBeNaN();
    expect(growthExponent([{ n: 1_000, value: 0 }, { n: 10_000, value: 2 }])).toBeNaN();
  });

  it('compares a growth exponent only with the same exponent over the same sizes', () => {
    const at = '2026-12-07T15:00:00.000Z';
    const earlier: Figure[] = [{ section: 'curve', name: exponentName('detail k', [1_000, 3_000]), value: 0.1, unit: '', goal: '≤ 0.2', at }];
    const lines: string[] = [];
    const report = createReport((line) => lines.push(line), { label: 'previous run', at, figures: earlier });
    report.section('curve');
    report.figure(exponentName('detail k', [1_000, 10_000, 100_000]), 0.5, '', '≤ 0.2');
    expect(report.regressions).toEqual([]);
    expect(lines.at(-1)).toBe('  detail k over 1,000 / 10,000 / 100,000 entries: 0.5000    (goal: ≤ 0.2)   [new: not in previous run]');
    report.figure(exponentName('detail k', [1_000, 3_000]), 0.5, '', '≤ 0.2');
    expect(report.regressions.map((r) => r.figure.name)).toEqual(['detail k over 1,000 / 3,000 entries']);
  });

  it('knows which way each figure improves', () => {
    expect(betterOf('MB/s')).toBe('higher');
    expect(betterOf('× faster', '≥ 100×')).toBe('higher');
    expect(betterOf('×', '≥ 0.5')).toBe('higher');
    expect(betterOf('ms', '≤ 20 ms')).toBe('lower');
    expect(betterOf('MB')).toBe('lower');
    expect(betterOf('%', '< 1 %')).toBe('lower');
    expect(betterOf('×')).toBeNull();
    expect(betterOf('×', undefined, 'lower')).toBe('lower');
  });

  it('flags a figure more than 25 % worse than the baseline, in the direction that matters for it', () => {
    const before: Figure[] = [
      { section: 's', name: 'throughput', value: 100, unit: 'MB/s' },
      { section: 's', name: 'p95', value: 10, unit: 'ms' },
      { section: 's', name: 'ratio', value: 2, unit: '×' },
    ];
    const at = (name: string, value: number, unit: string) => changeAgainst({ section: 's', name, value, unit }, before);
    expect(at('throughput', 74, 'MB/s')).toMatchObject({ flagged: true, worse: expect.closeTo(0.26, 5) });
    expect(at('throughput', 76, 'MB/s')).toMatchObject({ flagged: false });
    expect(at('throughput', 300, 'MB/s')).toMatchObject({ flagged: false, change: 2 });
    expect(at('p95', 12.6, 'ms')).toMatchObject({ flagged: true });
    expect(at('p95', 12.4, 'ms')).toMatchObject({ flagged: false });
    expect(at('p95', 2, 'ms')).toMatchObject({ flagged: false });
    expect(at('ratio', 0.1, '×')).toMatchObject({ flagged: false, worse: null });
    expect(at('absent', 1, 'ms')).toBeNull();

    const lines: string[] = [];
    const report = createReport((line) => lines.push(line), { label: 'previous run', at: 'then', figures: before });
    report.section('s');
    report.figure('throughput', 50, 'MB/s');
    report.figure('p95', 9, 'ms', '≤ 20 ms');
    report.figure('new one', 1, 'ms');
    expect(lines.slice(-3)).toEqual([
      '  throughput: 50 MB/s   [−50.0 % vs previous run: 50 % WORSE — REGRESSION]',
      '  p95: 9 ms   (goal: ≤ 20 ms)   [−10.0 % vs previous run, better]',
      '  new one: 1 ms   [new: not in previous run]',
    ]);
    expect(regressionLines(report.regressions)).toEqual(['REGRESSION in "s": throughput 100 → 50 MB/s (50 % worse than previous run)']);
  });

  it("keeps the figures of sections a run did not measure, each with its date, and compares a section with its own last run", () => {
    const monday: Figure[] = [
      { section: 'knowledge', name: 'detail p95', value: 40, unit: 'ms', at: 'monday' },
      { section: 'receipts', name: 'verify', value: 300, unit: 'MiB/s', at: 'monday' },
    ];
    // Tuesday runs receipts alone: knowledge's figure stays, receipts' is replaced and dated Tuesday.
    const tuesday = mergeResults(monday, [{ section: 'receipts', name: 'verify', value: 310, unit: 'MiB/s' }], 'tuesday');
    expect(tuesday).toEqual([
      { section: 'knowledge', name: 'detail p95', value: 40, unit: 'ms', at: 'monday' },
      { section: 'receipts', name: 'verify', value: 310, unit: 'MiB/s', at: 'tuesday' },
    ]);
    // Wednesday runs knowledge alone and is compared with Monday's knowledge figure, which says its date.
    const lines: string[] = [];
    const report = createReport((line) => lines.push(line), { label: 'previous run (tuesday)', at: 'tuesday', figures: tuesday });
    report.section('knowledge');
    report.figure('detail p95', 60, 'ms', '≤ 50 ms');
    expect(lines.at(-1)).toBe('  detail p95: 60 ms   (goal: ≤ 50 ms)   [+50.0 % vs previous run (monday): 50 % WORSE — REGRESSION]');
    // The closing line names the same earlier run as the figure's line, never the baseline's later date.
    expect(regressionLines(report.regressions)).toEqual(['REGRESSION in "knowledge": detail p95 40 → 60 ms (50 % worse than previous run (monday))']);
  });
});
