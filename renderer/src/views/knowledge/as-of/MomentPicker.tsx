import { createEffect, createSignal, For, on, Show, type JSX } from 'solid-js';
import './as-of.css';
import { Term } from '../../../components/Term';
import { freshQuery } from '../../../state/query';
import { KNOWLEDGE_STORES } from '../knowledge-query';
import { when } from '../../../state/format';
import { dateTimeToMoment, momentToDateTime } from './moment-param';

/** Phase completions come from outcome events (knowledge family) and curator_compliance in events.jsonl. */
const MOMENT_STORES = [...KNOWLEDGE_STORES, 'events'] as const;
const CUSTOM = 'custom';

/**
 * The toolbar's "As of" picker: now (live), when you last looked, a phase's completion, or a date
 * and time (UTC, to the second). Picking one puts the table in its read-only historical mode.
 */
export function MomentPicker(props: { moment: string | null; onPick: (moment: string | null) => void }): JSX.Element {
  const moments = freshQuery(MOMENT_STORES, 'history.moments', () => ({}));
  const known = () => (moments.data.error ? undefined : moments.data.latest);
  const isCustom = (m: string | null) => m !== null && m !== 'last-looked' && !m.startsWith('phase:');
  const [custom, setCustom] = createSignal(isCustom(props.moment));
  const [typed, setTyped] = createSignal(isCustom(props.moment) ? momentToDateTime(props.moment!) : '');
  const [bad, setBad] = createSignal(false);
  // The URL moved (Back to now, a shared link, a reload): the picker follows it.
  createEffect(
    on(
      () => props.moment,
      (m) => {
        setCustom(false);
        setBad(false);
        if (isCustom(m)) setTyped(momentToDateTime(m!));
      },
      { defer: true },
    ),
  );
  /** A phase in the URL that history does not list (yet): still named, so the picker shows what the table shows. */
  const unlistedPhase = () => (props.moment?.startsWith('phase:') && !(known()?.phases ?? []).some((p) => p.moment === props.moment) ? props.moment : null);
  const selectValue = () => (custom() || isCustom(props.moment) ? CUSTOM : (props.moment ?? 'now'));
  const lastLookedText = () => {
    const k = known();
    if (!k) return 'When I last looked';
    // Short: the select is as wide as its longest option. The banner gives the time to the second.
    return k.lastLooked ? `When I last looked (${when(k.lastLooked)})` : 'When I last looked (first visit)';
  };
  const pickTyped = () => {
    const moment = dateTimeToMoment(typed());
    setBad(moment === null);
    if (moment) props.onPick(moment);
  };
  return (
    <span class="as-of-picker">
      <label for="as-of-moment">
        <Term id="as-of">As of</Term>
      </label>
      <select
        id="as-of-moment"
        aria-label="As of"
        value={selectValue()}
        onChange={(e) => {
          const value = e.currentTarget.value;
          setBad(false);
          if (value === CUSTOM) {
            setCustom(true);
            if (!typed()) setTyped(momentToDateTime(known()?.now ?? new Date().toISOString()));
            return;
          }
          setCustom(false);
          props.onPick(value === 'now' ? null : value);
        }}
      >
        <option value="now">Now (live)</option>
        <option value="last-looked">{lastLookedText()}</option>
        <For each={known()?.phases ?? []}>{(p) => <option value={p.moment}>{`Phase ${p.phase} completed (${when(p.at)})`}</option>}</For>
        <Show when={unlistedPhase()}>{(m) => <option value={m()}>{`Phase ${m().slice(6)} completed`}</option>}</Show>
        <option value={CUSTOM}>A date and time (UTC)…</option>
      </select>
      <Show when={selectValue() === CUSTOM}>
        <input
          type="datetime-local"
          step="1"
          aria-label="As of date and time (UTC)"
          aria-invalid={bad()}
          value={typed()}
          onInput={(e) => setTyped(e.currentTarget.value)}
          onKeyDown={(e) => e.key === 'Enter' && pickTyped()}
        />
        <button type="button" onClick={pickTyped}>
          Show
        </button>
        <Show when={bad()}>
          <span class="error" role="alert">
            Not a date and time: give day and time, e.g. 2026-12-01 09:30.
          </span>
        </Show>
      </Show>
    </span>
  );
}
