import { describe, expect, it } from 'vitest';
import { createReport, failureLines, percentile } from './report';

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
});
