import { describe, expect, it } from 'vitest';
import { createPagedRows } from './paged-rows';

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

function server(total: number) {
  const requests: number[] = [];
  let version = 0;
  return {
    requests,
    bump: () => version++,
    fetch: async (offset: number, limit: number) => {
      requests.push(offset);
      await tick();
      const rows = Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => `row${offset + i}v${version}`);
      return { rows, total };
    },
  };
}

describe('paged rows over a server-side list', () => {
  it('fetches only the blocks in view, nearest first, at most two at a time', async () => {
    const s = server(100_000);
    const rows = createPagedRows(s.fetch, 100, { settleMs: 0 });
    rows.ensureRange(0, 1);
    await tick();
    await tick();
    expect(rows.total()).toBe(100_000);
    s.requests.length = 0;
    rows.ensureRange(50_000, 50_250);
    expect(s.requests).toEqual([50_000, 50_100]);
    for (let i = 0; i < 6; i++) await tick();
    expect(s.requests).toEqual([50_000, 50_100, 50_200]);
    expect(rows.rowAt(50_123)).toBe('row50123v0');
    expect(rows.rowAt(70_000)).toBeUndefined();
  });

  it('drops queued blocks the viewport has already left', async () => {
    const s = server(100_000);
    const rows = createPagedRows(s.fetch, 100, { settleMs: 0 });
    rows.ensureRange(0, 1);
    await tick();
    await tick();
    s.requests.length = 0;
    rows.ensureRange(0, 800);
    rows.ensureRange(90_000, 90_050);
    for (let i = 0; i < 10; i++) await tick();
    // Block 0 is loaded; 1 and 2 were in flight and 3–7 still queued when the operator jumped to
    // 90,000: the queued ones are dropped, 90,000 is fetched next.
    expect(s.requests).toEqual([100, 200, 90_000]);
  });

  it('during a fling fetches nothing until the viewport stays put, then only where it stopped', async () => {
    const s = server(100_000);
    const rows = createPagedRows(s.fetch, 100, { settleMs: 30 });
    rows.ensureRange(0, 1);
    await tick();
    await tick();
    s.requests.length = 0;
    // A fling: 60 rows a frame, less than a block.
    for (let start = 0; start <= 6_000; start += 60) {
      rows.ensureRange(start, start + 50);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(s.requests).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 60));
    // Where it stopped (and the block just above, still within reach); nothing it flew past.
    expect(s.requests).toContain(6_000);
    expect(s.requests.every((offset) => offset >= 5_900 && offset <= 6_000)).toBe(true);
    // Scrolling on at reading speed from there fetches at once.
    const before = s.requests.length;
    rows.ensureRange(6_020, 6_070);
    rows.ensureRange(6_040, 6_090);
    rows.ensureRange(6_060, 6_110);
    expect(s.requests.slice(before)).toEqual([6_100]);
  });

  it('refreshes the loaded blocks in place and reports rows before and after', async () => {
    const s = server(300);
    const rows = createPagedRows(s.fetch, 100);
    rows.ensureRange(0, 1);
    await tick();
    await tick();
    s.bump();
    const { before, after } = await rows.refresh();
    expect(before.get(5)).toBe('row5v0');
    expect(after.get(5)).toBe('row5v1');
    expect(rows.rowAt(5)).toBe('row5v1');
  });
});
