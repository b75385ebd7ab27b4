import { describe, expect, it } from 'vitest';
import { cursorIndex, moveCursor, positionText } from './cursor';

const rows = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];

describe('the Changes cursor', () => {
  it('stays on the selected id wherever it moved, else starts at the first row', () => {
    expect(cursorIndex(rows, 'c')).toBe(2);
    expect(cursorIndex([{ id: 'new' }, ...rows], 'c')).toBe(3);
    expect(cursorIndex(rows, 'gone')).toBe(0);
    expect(cursorIndex(rows, null)).toBe(0);
    expect(cursorIndex([], 'a')).toBe(-1);
  });

  it('moves by keys within the list', () => {
    expect(moveCursor(0, 1, 3)).toBe(1);
    expect(moveCursor(2, 1, 3)).toBe(2);
    expect(moveCursor(0, -1, 3)).toBe(0);
    expect(moveCursor(1, 20, 3)).toBe(2);
    expect(moveCursor(-1, 1, 3)).toBe(1);
    expect(moveCursor(0, 1, 0)).toBe(-1);
  });

  it('says where the cursor is', () => {
    expect(positionText(2, 41)).toBe('3 of 41');
    expect(positionText(0, 1234)).toBe('1 of 1,234');
    expect(positionText(-1, 0)).toBe('no changes shown');
  });
});
