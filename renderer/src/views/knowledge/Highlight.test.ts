import { describe, expect, it } from 'vitest';
import { pieces } from './Highlight';

describe('search highlight pieces', () => {
  it('splits text into plain and marked runs, clamping bad ranges', () => {
    expect(pieces('call declare_scope first', [[5, 18]])).toEqual([
      { text: 'call ', marked: false },
      { text: 'declare_scope', marked: true },
      { text: ' first', marked: false },
    ]);
    expect(pieces('abc', [[2, 99], [0, 1]])).toEqual([
      { text: 'a', marked: true },
      { text: 'b', marked: false },
      { text: 'c', marked: true },
    ]);
    expect(pieces('<img src=x onerror=alert(1)>', [])).toEqual([{ text: '<img src=x onerror=alert(1)>', marked: false }]);
  });
});
