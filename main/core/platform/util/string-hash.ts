/**
 * A 32-bit hash of a string's UTF-16 code units for open-addressing tables (keyed-table.ts,
 * string-ids.ts): FNV-1a, then mixed so the low bits such a table masks depend on every unit.
 */
export function stringHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  hash ^= hash >>> 16;
  return Math.imul(hash, 0x85ebca6b) >>> 0;
}
