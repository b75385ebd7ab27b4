import { createSignal, For, Show, type JSX } from 'solid-js';
import type { MomentsOutput } from '../../../../shared/contract/history';
import { when } from '../../state/format';
import { dateInputFromMoment, momentFromDateInput } from './history-params';

const CUSTOM = 'date-time';

/** What a moment means, in words, with its time where the console knows it. */
export function momentLabel(moment: string, moments: MomentsOutput | undefined): string {
  if (moment === 'now') return 'now';
  if (moment === 'last-looked') {
    if (!moments) return 'when you last looked';
    return moments.lastLooked ? `when you last looked (${when(moments.lastLooked)})` : `when you last looked (never here before: since history began${moments.historyBegan ? `, ${when(moments.historyBegan)}` : ''})`;
  }
  const phase = /^phase:(\d+)$/.exec(moment);
  if (phase) {
    const known = moments?.phases.find((p) => p.moment === moment);
    return known ? `phase ${phase[1]} completed (${when(known.at)})` : `phase ${phase[1]} completed`;
  }
  return when(moment);
}

/**
 * One end of the range: when I last looked, a phase the plugin completed, now, or a date and
 * time (UTC, as every time in the console).
 */
export function MomentPicker(props: { label: string; testId: string; value: string; moments: MomentsOutput | undefined; onChange: (moment: string) => void }): JSX.Element {
  const isDate = () => /^\d{4}-/.test(props.value);
  const [custom, setCustom] = createSignal(false);
  const selectValue = () => (isDate() || custom() ? CUSTOM : props.value);
  const phases = () => props.moments?.phases ?? [];
  const phaseListed = () => !/^phase:/.test(props.value) || phases().some((p) => p.moment === props.value);
  return (
    <label class="moment-picker">
      <span>{props.label}</span>
      <select
        data-testid={`${props.testId}-select`}
        value={selectValue()}
        onChange={(e) => {
          const value = e.currentTarget.value;
          setCustom(value === CUSTOM);
          if (value !== CUSTOM) props.onChange(value);
        }}
      >
        <option value="last-looked">{momentLabel('last-looked', props.moments)}</option>
        <For each={phases()}>{(p) => <option value={p.moment}>{momentLabel(p.moment, props.moments)}</option>}</For>
        <Show when={!phaseListed()}>
          <option value={props.value}>{momentLabel(props.value, props.moments)} — not in this history</option>
        </Show>
        <option value="now">now</option>
        <option value={CUSTOM}>a date and time (UTC)…</option>
      </select>
      <Show when={selectValue() === CUSTOM}>
        <input
          type="datetime-local"
          data-testid={`${props.testId}-date`}
          aria-label={`${props.label}: date and time (UTC)`}
          value={dateInputFromMoment(props.value)}
          onChange={(e) => {
            const moment = momentFromDateInput(e.currentTarget.value);
            if (moment) props.onChange(moment);
          }}
        />
      </Show>
    </label>
  );
}
