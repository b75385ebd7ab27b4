/**
 * Sealed values: plain data (objects and arrays of strings, numbers, booleans, null) frozen all
 * the way down, so they can never change again. A producer that answers a request with the very
 * same sealed object while its inputs stay the same lets the dispatcher check and mask that
 * answer once (rpc/answer-cache.ts): what it derived from a value that cannot change stays true.
 */

/** Containers known to be frozen all the way down (a new answer that shares parts of an earlier one freezes only its new parts). */
const deeplyFrozen = new WeakSet<object>();
/** The roots sealed by `seal`: only these are taken as never changing. */
const sealedRoots = new WeakSet<object>();

const isPlainObject = (value: object) => {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/** Whether `value` is plain data all the way down (parts already frozen deeply are not walked again). */
function isPlainData(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return typeof value !== 'function' && typeof value !== 'symbol';
  if (deeplyFrozen.has(value)) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!isPlainData(value[i])) return false;
    return true;
  }
  if (!isPlainObject(value)) return false;
  for (const key of Object.keys(value)) if (!isPlainData((value as Record<string, unknown>)[key])) return false;
  return true;
}

/**
 * Freezes plain data all the way down (see isPlainData). Only containers of other objects are
 * remembered: a leaf (an object or array of primitives) is reached through its container, and
 * remembering thousands of them costs more than freezing them again.
 */
function freezeDeep(value: unknown): void {
  if (value === null || typeof value !== 'object' || deeplyFrozen.has(value)) return;
  let leaf = true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (item !== null && typeof item === 'object') {
        leaf = false;
        freezeDeep(item);
      }
    }
  } else {
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      if (item !== null && typeof item === 'object') {
        leaf = false;
        freezeDeep(item);
      }
    }
  }
  Object.freeze(value);
  if (!leaf) deeplyFrozen.add(value);
}

/** Freezes `value` all the way down and marks it sealed; a value that is not plain data is returned untouched and unmarked (never cached). */
export function seal<T extends object>(value: T): T {
  if (!isPlainData(value)) return value;
  freezeDeep(value);
  sealedRoots.add(value);
  return value;
}

/** Whether `value` was sealed (and so is frozen all the way down). */
export function isSealed(value: unknown): value is object {
  return typeof value === 'object' && value !== null && sealedRoots.has(value);
}
