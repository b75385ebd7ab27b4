import { describe, expect, it } from 'vitest';
import { RidTable } from './rid-table';

describe('rid table', () => {
  it('finds, adds in and out of order, replaces and removes exactly as a map by rid would', () => {
    const table = new RidTable<{ rid: number; tag: string }>();
    const model = new Map<number, { rid: number; tag: string }>();
    const put = (rid: number, tag: string) => {
      const item = { rid, tag };
      table.set(item);
      model.set(rid, item);
    };
    for (let rid = 5; rid < 400; rid += 3) put(rid, `a${rid}`);
    // Out of order (a row that arrives late), below the first and between two others; then a replacement.
    for (const rid of [1, 2, 100, 101, 399, 7]) put(rid, `b${rid}`);
    const check = () => {
      expect(table.size).toBe(model.size);
      for (let rid = 0; rid < 420; rid++) {
        expect(table.get(rid)).toBe(model.get(rid));
        expect(table.has(rid)).toBe(model.has(rid));
      }
    };
    check();
    const dropped = table.removeWhere((item) => item.rid % 2 === 0);
    expect(dropped.map((item) => item.rid)).toEqual([...model.keys()].filter((rid) => rid % 2 === 0).sort((a, b) => a - b));
    for (const item of dropped) model.delete(item.rid);
    check();
    put(1000, 'c');
    check();
  });
});
