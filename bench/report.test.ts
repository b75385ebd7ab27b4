import { describe, expect, it } from 'vitest';
import { createReport, percentile } from './report';

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
});
