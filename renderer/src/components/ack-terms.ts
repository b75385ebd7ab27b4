/**
 * One meaning per word across the console (issue 13 item 2). "Acknowledged" is only the plugin's
 * effective `acknowledged_count`; any answer at all is "answered". Every label that shows either
 * figure carries the matching rule as its tooltip.
 */
export const ACKNOWLEDGED_RULE =
  'Acknowledged: the plugin’s effective acknowledged_count (docs/plugin-formats.md#effective-counters) — explicit acknowledgements only: acknowledged events, and N/A markers (knowledge-application.jsonl stores them as "acknowledged"), over the counter baseline and the logs. Applied, ignored or violated answers are not acknowledgements.';

export const ANSWERED_RULE =
  'Answered: displays that got any answer — applied, ignored, N/A, contradicted or violated, from any source — each display counted once. This is not the plugin’s acknowledged_count.';

export const DERIVED_RULE =
  'Derived from legacy logs: the released plugin records displays and answers without the directive’s priority or an obligation, so the priority (and "ack required" for a critical directive) comes from its knowledge entry, displays from retrieved events and legacy "shown" lines, answers from legacy markers, and phase completion from outcome events.';
