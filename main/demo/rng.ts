/**
 * Seeded randomness for the demo generator. Every stream is derived from the seed and a label,
 * so adding content to one store never shifts the content of another (stable diffs between
 * generator versions, stable ids for view tests).
 */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  int(min: number, maxInclusive: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Weighted pick: `[[value, weight], …]`. */
  weighted<T>(choices: ReadonlyArray<readonly [T, number]>): T;
  /** `count` distinct items (or all of them when fewer exist), in random order. */
  sample<T>(items: readonly T[], count: number): T[];
  /** A float rounded to `decimals`. */
  float(min: number, max: number, decimals?: number): number;
  hex(length: number): string;
  base62(length: number): string;
  /** RFC 4122 version-4 layout, drawn from this stream. */
  uuid(): string;
  /** An independent child stream. */
  fork(label: string): Rng;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const HEX = '0123456789abcdef';

function fnv1a(text: string, basis: number): number {
  let hash = basis >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

export function createRng(seed: number, label = 'root'): Rng {
  // mulberry32: tiny, fast, and good enough for test fixtures.
  let state = fnv1a(label, (seed ^ 0x811c9dc5) >>> 0) || 0x9e3779b9;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, maxInclusive: number) => min + Math.floor(next() * (maxInclusive - min + 1));
  const rng: Rng = {
    next,
    int,
    chance: (p) => next() < p,
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)] as (typeof items)[number];
    },
    weighted: (choices) => {
      const total = choices.reduce((sum, [, w]) => sum + w, 0);
      let roll = next() * total;
      for (const [value, weight] of choices) {
        roll -= weight;
        if (roll < 0) return value;
      }
      return (choices[choices.length - 1] as readonly [never, number])[0];
    },
    sample: (items, count) => {
      const n = items.length;
      const k = Math.min(count, n);
      if (k * 4 < n) {
        // Few from many (receipt pools): draw distinct indices instead of copying the pool.
        const picked = new Set<number>();
        while (picked.size < k) picked.add(Math.floor(next() * n));
        return [...picked].map((i) => items[i] as (typeof items)[number]);
      }
      const copy = items.slice();
      for (let i = 0; i < k; i++) {
        const j = i + Math.floor(next() * (n - i));
        [copy[i], copy[j]] = [copy[j] as (typeof copy)[number], copy[i] as (typeof copy)[number]];
      }
      return copy.slice(0, k);
    },
    float: (min, max, decimals = 2) => {
      const factor = 10 ** decimals;
      return Math.round((min + next() * (max - min)) * factor) / factor;
    },
    hex: (length) => {
      let out = '';
      for (let i = 0; i < length; i++) out += HEX[Math.floor(next() * 16)];
      return out;
    },
    base62: (length) => {
      let out = '';
      for (let i = 0; i < length; i++) out += BASE62[Math.floor(next() * 62)];
      return out;
    },
    uuid: () => {
      const word = () => ((next() * 4294967296) >>> 0).toString(16).padStart(8, '0');
      const a = word();
      const b = word();
      const c = word();
      const d = word();
      const variant = HEX[8 + (parseInt(c[0] as string, 16) & 3)] as string;
      return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-${variant}${c.slice(1, 4)}-${c.slice(4)}${d}`;
    },
    fork: (childLabel) => createRng(seed, `${label}/${childLabel}`),
  };
  return rng;
}
