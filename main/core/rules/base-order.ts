import { giveWayToOperator } from '../platform/util/foreground';

/**
 * The reader's ranking order: base score descending, and for scores within 0.001 of each other
 * the newer entry first. The comparator is not transitive, so the order is whatever the engine's
 * sort makes of it: it is always computed with this same call (in-thread or in a worker, both
 * V8), on arrays holding the same numbers the plugin's objects hold.
 */
export function baseOrder(base: ArrayLike<number>, times: ArrayLike<number>): number[] {
  const order = Array.from({ length: base.length }, (_, i) => i);
  order.sort((a, b) => {
    // In the similarity worker the sort waits here while the operator scrolls (the same comparisons, so the same order).
    giveWayToOperator();
    const diff = base[b]! - base[a]!;
    return Math.abs(diff) > 0.001 ? diff : times[b]! - times[a]!;
  });
  return order;
}
