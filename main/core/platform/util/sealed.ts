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

/**
 * Freezes plain data all the way down, in one walk. Only containers of other objects are
 * remembered: a leaf (an object or array of primitives) is reached through its container, and
 * remembering thousands of them costs more than freezing them again.
 */
function freezeDeep(value: object): void {
  if (deeplyFrozen.has(value)) return;
  let leaf = true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === 'object' && item !== null) {
        leaf = false;
        freezeDeep(item);
      } else if (typeof item === 'function' || typeof item === 'symbol') throw new TypeError(NOT_PLAIN);
    }
  } else {
    if (!isPlainObject(value)) throw new TypeError(NOT_PLAIN);
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      if (typeof item === 'object' && item !== null) {
        leaf = false;
        freezeDeep(item);
      } else if (typeof item === 'function' || typeof item === 'symbol') throw new TypeError(NOT_PLAIN);
    }
  }
  Object.freeze(value);
  if (!leaf) deeplyFrozen.add(value);
}

const NOT_PLAIN = 'only plain data (objects, arrays, strings, numbers, booleans, null) can be sealed';

/** Freezes `value` all the way down and marks it sealed. Anything but plain data (a Map, a Date, a function…) is a mistake and throws. */
export function seal<T extends object>(value: T): T {
  freezeDeep(value);
  sealedRoots.add(value);
  return value;
}

/** Whether `value` was sealed (and so is frozen all the way down). */
export function isSealed(value: unknown): value is object {
  return typeof value === 'object' && value !== null && sealedRoots.has(value);
}
