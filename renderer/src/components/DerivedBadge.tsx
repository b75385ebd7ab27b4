import type { JSX } from 'solid-js';
import { DERIVED_RULE } from './ack-terms';

/** Marks a figure the console derived from the released plugin's legacy logs rather than read from a V2 record. */
export function DerivedBadge(): JSX.Element {
  return (
    <span class="badge muted derived" title={DERIVED_RULE} aria-description={DERIVED_RULE} data-testid="derived">
      derived from legacy logs
    </span>
  );
}
