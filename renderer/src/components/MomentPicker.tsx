import { createEffect, createSignal, For, on, Show, type JSX } from 'solid-js';
import type { MomentsOutput } from '../../../shared/contract/history';
import { dateTimeToMoment, isDateMoment, momentOptionText, momentToDateTime } from '../state/moments';

/** The select's value while the date-time field is shown. */
const DATE_TIME = 'date-time';

/**
 * The one way to pick a moment (the History area's Since and Until, Knowledge's As of): now,
 * when you last looked, a phase the plugin completed, or a date and time (UTC, to the second).
 * A phase in the value that history does not list is still named, so the picker shows what the
 * view shows; a date-time that is not one is said, never guessed at.
 */
export function MomentPicker(props: {
  /** The accessible name ("Since", "As of"); also the visible label unless `label` is given. */
  name: string;
  label?: JSX.Element;
  testId: string;
  /** The moment shown: `now`, `last-looked`, `phase:N` or an ISO date-time. */
  value: string;
  moments: MomentsOutput | undefined;
  onPick: (moment: string) => void;
  /** What "now" is called here ("now" in a range, "Now (live)" for a view that can be live). */
  nowText?: string;
  /** Label beside the select (a toolbar) rather than above it (a form row). */
  inline?: boolean;
}): JSX.Element {
  const [custom, setCustom] = createSignal(isDateMoment(props.value));
  const [typed, setTyped] = createSignal(momentToDateTime(props.value));
  const [bad, setBad] = createSignal(false);
  // The value moved from outside (Back, a shared link, a reload): the picker follows it.
  createEffect(
    on(
      () => props.value,
      (moment) => {
        setBad(false);
        setCustom(isDateMoment(moment));
        if (isDateMoment(moment)) setTyped(momentToDateTime(moment));
      },
      { defer: true },
    ),
  );
  const phases = () => props.moments?.phases ?? [];
  const unlistedPhase = () => (props.value.startsWith('phase:') && !phases().some((p) => p.moment === props.value) ? props.value : null);
  const selectValue = () => (custom() ? DATE_TIME : props.value);
  const selectId = () => `${props.testId}-select`;
  const pickTyped = (quietIfIncomplete = false) => {
    const moment = dateTimeToMoment(typed());
    if (moment) props.onPick(moment);
    setBad(moment === null && !(quietIfIncomplete && typed() === ''));
  };
  return (
    <span class="moment-picker" classList={{ inline: props.inline === true }}>
      <label for={selectId()}>{props.label ?? props.name}</label>
      <span class="moment-picker-fields">
        <select
          id={selectId()}
          data-testid={selectId()}
          aria-label={props.name}
          value={selectValue()}
          onChange={(e) => {
            const value = e.currentTarget.value;
            setBad(false);
            if (value !== DATE_TIME) {
              setCustom(false);
              return props.onPick(value);
            }
            setCustom(true);
            if (!typed()) setTyped(momentToDateTime(props.moments?.now ?? new Date().toISOString()));
          }}
        >
          <option value="now">{props.nowText ?? 'now'}</option>
          <option value="last-looked">{momentOptionText('last-looked', props.moments)}</option>
          <For each={phases()}>{(p) => <option value={p.moment}>{momentOptionText(p.moment, props.moments)}</option>}</For>
          <Show when={unlistedPhase()}>{(m) => <option value={m()}>{`${momentOptionText(m(), props.moments)} — not in this history`}</option>}</Show>
          <option value={DATE_TIME}>a date and time (UTC)…</option>
        </select>
        <Show when={custom()}>
          <input
            type="datetime-local"
            step="1"
            data-testid={`${props.testId}-date`}
            aria-label={`${props.name} date and time (UTC)`}
            aria-invalid={bad()}
            value={typed()}
            onInput={(e) => setTyped(e.currentTarget.value)}
            onChange={() => pickTyped(true)}
            onKeyDown={(e) => e.key === 'Enter' && pickTyped()}
          />
          <button type="button" onClick={() => pickTyped()}>
            Show
          </button>
          <Show when={bad()}>
            <span class="error" role="alert">
              Not a date and time: give day and time, e.g. 2026-12-01 09:30.
            </span>
          </Show>
        </Show>
      </span>
    </span>
  );
}
