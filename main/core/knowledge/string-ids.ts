import { stringHash } from '../platform/util/string-hash';

/**
 * Numbers distinct strings in the order first seen (0, 1, 2…), for the bigram vocabulary's
 * words: a workspace's lessons bring a new word or so each (names, numbers), and a Map kept
 * about 40 bytes a word besides the word itself (entry, chain link, bucket, slack). Here a word
 * costs its slot in a list and 5–11 bytes of a typed table of ids by hash (open addressing).
 */
export class StringIds {
  private readonly words: string[] = [];
  /** Id + 1 of each word, at its hash's slot (0: empty). */
  private slots = new Int32Array(16);

  get size(): number {
    return this.words.length;
  }

  /** The word's id, given the next one when the word is new. */
  idOf(word: string): number {
    let at = this.slotOf(word);
    const found = this.slots[at]!;
    if (found !== 0) return found - 1;
    // Grown at three quarters full: probes stay short.
    if ((this.words.length + 1) * 4 > this.slots.length * 3) {
      this.grow();
      at = this.slotOf(word);
    }
    this.words.push(word);
    this.slots[at] = this.words.length;
    return this.words.length - 1;
  }

  /** The slot holding `word`'s id, or the empty slot where it would go (linear probing). */
  private slotOf(word: string): number {
    const mask = this.slots.length - 1;
    let at = stringHash(word) & mask;
    for (;;) {
      const found = this.slots[at]!;
      if (found === 0 || this.words[found - 1] === word) return at;
      at = (at + 1) & mask;
    }
  }

  private grow(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    for (let id = 0; id < this.words.length; id++) this.slots[this.slotOf(this.words[id]!)] = id + 1;
  }
}
