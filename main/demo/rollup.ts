/**
 * The plugin's counter rollup (`readKnowledgeCounterRollups`) as the console computes it: the
 * generator gives story entries the stored counters the plugin would have written, and tests
 * check the demo's claims, with the same rule the Knowledge view uses.
 */
import { buildCounterRollups, emptyRollup, type CounterRollup } from '../core/rules/counters';

export { emptyRollup, type CounterRollup };

export function computeRollups(
  baseline: Record<string, CounterRollup>,
  events: readonly Record<string, unknown>[],
  application: readonly Record<string, unknown>[],
): Map<string, CounterRollup> {
  return buildCounterRollups({ baseline, events, applicationLog: application });
}
