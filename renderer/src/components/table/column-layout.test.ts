import { describe, expect, it } from 'vitest';
import { columnLayout } from './column-layout';

const columns = [{ width: 220, grow: true }, { width: 52 }, { width: 116 }];

describe('column layout', () => {
  it('gives the grow column what the pane has left, so the columns fill it exactly', () => {
    const layout = columnLayout(columns, 1000.6);
    expect(layout.widths).toEqual([832, 52, 116]);
    expect(layout.total).toBe(1000);
    expect(layout.template).toBe('832px 52px 116px');
  });

  it('never shrinks a column below its width: a narrow pane scrolls sideways instead', () => {
    const layout = columnLayout(columns, 300);
    expect(layout.widths).toEqual([220, 52, 116]);
    expect(layout.total).toBe(388);
  });

  it('keeps fixed widths when no column grows (hidden Lesson)', () => {
    expect(columnLayout([{ width: 52 }, { width: 116 }], 1000).total).toBe(168);
  });
});
