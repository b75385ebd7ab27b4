import { describe, expect, it } from 'vitest';
import { StringIds } from './string-ids';

describe('string ids', () => {
  it('numbers distinct strings in the order first seen, through many growths; a string seen again keeps its id', () => {
    const ids = new StringIds();
    const model = new Map<string, number>();
    const words = Array.from({ length: 5000 }, (_, k) => (k % 3 === 0 ? String(k) : k % 3 === 1 ? `w${k % 1700}` : `naïve-${k % 900}`));
    for (const word of ['', ...words, ...words.slice(0, 100).reverse()]) {
      if (!model.has(word)) model.set(word, model.size);
      expect(ids.idOf(word)).toBe(model.get(word));
    }
    expect(ids.size).toBe(model.size);
    for (const [word, id] of model) expect(ids.idOf(word)).toBe(id);
    expect(ids.size).toBe(model.size);
  });
});
