/**
 * A map from whole numbers (0 ≤ key < 2^31) to whole numbers in the same range, kept in two
 * typed arrays by open addressing. The bigram vocabulary keys every distinct bigram of a
 * workspace's lessons (a few per lesson) by a number: a Map costs about 40 bytes a key there
 * (entry, chain link, bucket and slack); this costs 8 bytes a slot, 11–16 a key at its load.
 */
const EMPTY = -1;
const MIN_CAPACITY = 16;

export class IntMap {
  private keys: Int32Array;
  private values: Int32Array;
  private count = 0;
  /** 32 − log2(capacity): a key's home slot is the top bits of its product with the golden ratio. */
  private shift: number;

  constructor(capacity = MIN_CAPACITY) {
    let size = MIN_CAPACITY;
    while (size < capacity) size *= 2;
    this.keys = new Int32Array(size).fill(EMPTY);
    this.values = new Int32Array(size);
    this.shift = 32 - Math.log2(size);
  }

  get size(): number {
    return this.count;
  }

  get(key: number): number | undefined {
    const at = this.slotOf(key);
    return this.keys[at] === key ? this.values[at] : undefined;
  }

  set(key: number, value: number): void {
    if (!Number.isInteger(key) || key < 0 || key > 0x7fffffff) throw new RangeError(`IntMap key out of range: ${key}`);
    if (!Number.isInteger(value) || value < 0 || value > 0x7fffffff) throw new RangeError(`IntMap value out of range: ${value}`);
    let at = this.slotOf(key);
    if (this.keys[at] !== key) {
      // Grown at three quarters full: probes stay short.
      if ((this.count + 1) * 4 > this.keys.length * 3) {
        this.grow();
        at = this.slotOf(key);
      }
      this.keys[at] = key;
      this.count++;
    }
    this.values[at] = value;
  }

  /** The slot holding `key`, or the empty slot where it would go (linear probing). */
  private slotOf(key: number): number {
    const mask = this.keys.length - 1;
    let at = Math.imul(key, 0x9e3779b1) >>> this.shift;
    for (;;) {
      const found = this.keys[at]!;
      if (found === key || found === EMPTY) return at;
      at = (at + 1) & mask;
    }
  }

  private grow(): void {
    const [keys, values] = [this.keys, this.values];
    this.keys = new Int32Array(keys.length * 2).fill(EMPTY);
    this.values = new Int32Array(keys.length * 2);
    this.shift--;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (key === EMPTY) continue;
      const at = this.slotOf(key);
      this.keys[at] = key;
      this.values[at] = values[i]!;
    }
  }
}
