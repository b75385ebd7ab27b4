import type { JSX } from 'solid-js';
import { MomentPicker } from '../../../components/MomentPicker';
import { Term } from '../../../components/Term';
import { freshQuery } from '../../../state/query';
import { KNOWLEDGE_STORES } from '../knowledge-query';

/** Phase completions come from outcome events (knowledge family) and curator_compliance in events.jsonl. */
const MOMENT_STORES = [...KNOWLEDGE_STORES, 'events'] as const;

/**
 * The toolbar's "As of" picker: now (live) or a moment history can resolve. Picking one puts the
 * table in its read-only historical mode; `null` is live.
 */
export function AsOfPicker(props: { moment: string | null; onPick: (moment: string | null) => void }): JSX.Element {
  const moments = freshQuery(MOMENT_STORES, 'history.moments', () => ({}));
  return (
    <MomentPicker
      name="As of"
      label={<Term id="as-of">As of</Term>}
      testId="as-of"
      inline
      nowText="Now (live)"
      value={props.moment ?? 'now'}
      moments={moments.data.error ? undefined : moments.data.latest}
      onPick={(moment) => props.onPick(moment === 'now' ? null : moment)}
    />
  );
}
