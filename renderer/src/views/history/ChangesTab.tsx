import { createMemo, For, onMount, Show, type JSX } from 'solid-js';
import type { ChangesOutput, MomentsOutput } from '../../../../shared/contract/history';
import { useListKeys } from '../../state/keyboard';
import { freshQuery } from '../../state/query';
import { useRouter } from '../../state/router-context';
import { plural, when } from '../../state/format';
import { MomentPicker } from '../../components/MomentPicker';
import { ChangeList } from './ChangeList';
import { countsText, filterRows, historyBeganText, type ChangeRow } from './change-text';
import { cursorIndex, moveCursor, positionText } from './cursor';
import { TIERS, toggled, type HistoryState } from './history-params';
import { HISTORY_STORES } from './history-stores';
import { TimelinePanel } from './TimelinePanel';
import { LoadFailure } from '../../components/LoadFailure';

/**
 * Changes between two moments (default: since you last looked, until now): counts that say what
 * they count, filters by tier and kind of change, one row per entry with its field diff or the
 * reason it left, stepped through by keyboard. Enter opens the entry in Knowledge, or the
 * timeline of an entry the stores no longer hold.
 */
export function ChangesTab(props: { state: HistoryState; moments: MomentsOutput | undefined; onState: (next: Partial<HistoryState>) => void }): JSX.Element {
  const router = useRouter();
  const changes = freshQuery(HISTORY_STORES, 'history.changes', () => ({ since: props.state.since, until: props.state.until }));
  // The last answer stays on screen while a refresh is in flight (and the list keeps the focus).
  const data = (): ChangesOutput | undefined => (changes.data.state === 'errored' ? undefined : changes.data.latest);
  const failure = () => (changes.data.state === 'errored' ? (changes.data.error as unknown) : null);
  const rows = createMemo(() => filterRows(data()?.rows ?? [], props.state.tiers, props.state.changes));
  const cursor = () => cursorIndex(rows(), props.state.sel);
  let list: HTMLDivElement | undefined;

  const select = (index: number) => {
    const row = rows()[index];
    if (row) props.onState({ sel: row.id });
  };
  const openInKnowledge = (row: Pick<ChangeRow, 'id' | 'place'>) => router.go('knowledge', { open: row.id, openTier: row.place.tier, collection: 'all' });
  const open = (index: number) => {
    const row = rows()[index];
    if (!row) return;
    // A removed entry is not in the live stores: its history is what there is to open.
    if (row.change === 'removed') props.onState({ sel: row.id, timeline: row.id });
    else openInKnowledge(row);
  };
  const closeTimeline = () => {
    props.onState({ timeline: null });
    list?.focus();
  };
  useListKeys({
    move: (step) => select(moveCursor(cursor(), step, rows().length)),
    open: () => open(cursor()),
    focusSearch: () => undefined,
    escape: () => props.state.timeline && closeTimeline(),
  });
  onMount(() => list?.focus());

  const tierCount = (tier: string) => (data()?.rows ?? []).filter((r) => r.place.tier === tier).length;
  const filtered = () => props.state.tiers.length > 0 || props.state.changes.length > 0;
  const timelineRow = () => (data()?.rows ?? []).find((r) => r.id === props.state.timeline);

  return (
    <div class="history-changes" data-testid="history-changes">
      <div class="history-range">
        <MomentPicker name="Since" testId="history-since" value={props.state.since} moments={props.moments} onPick={(since) => props.onState({ since, sel: null })} />
        <MomentPicker name="Until" testId="history-until" value={props.state.until} moments={props.moments} onPick={(until) => props.onState({ until, sel: null })} />
        <Show when={data()}>
          {(d) => (
            <p class="muted small" data-testid="history-resolved">
              From {when(d().since.at)} to {when(d().until.at)}.
            </p>
          )}
        </Show>
      </div>
      <Show when={failure()}>
        <LoadFailure error={failure()} retry={changes.refetch} what="History could not answer" testId="history-changes-error" />
      </Show>
      <Show when={data()}>
        {(d) => (
          <>
            <div class="history-counts" data-testid="history-counts">
              <For each={countsText(d().counts)}>
                {(c) => (
                  <button
                    type="button"
                    classList={{ primary: props.state.changes.includes(c.kind) }}
                    aria-pressed={props.state.changes.includes(c.kind)}
                    data-testid={`history-count-${c.kind}`}
                    title="Show only this kind of change (click again to show all)"
                    onClick={() => props.onState({ changes: toggled(props.state.changes, c.kind), sel: null })}
                  >
                    {c.text}
                  </button>
                )}
              </For>
            </div>
            <div class="history-filters">
              <span class="muted small">Tier:</span>
              <For each={TIERS}>
                {(tier) => (
                  <button
                    type="button"
                    classList={{ primary: props.state.tiers.includes(tier) }}
                    aria-pressed={props.state.tiers.includes(tier)}
                    data-testid={`history-tier-${tier}`}
                    onClick={() => props.onState({ tiers: toggled(props.state.tiers, tier), sel: null })}
                  >
                    {tier} <span class="count">{tierCount(tier)}</span>
                  </button>
                )}
              </For>
              <Show when={filtered()}>
                <button type="button" onClick={() => props.onState({ tiers: [], changes: [], sel: null })}>
                  Show every change
                </button>
              </Show>
              <span class="history-position" data-testid="history-position">
                {positionText(cursor(), rows().length)}
                {filtered() ? ` (filtered from ${plural(d().rows.length, 'change')})` : ''}
              </span>
            </div>
            <div class="history-notes" data-testid="history-notes">
              <p class="muted small" data-testid="history-began">
                {historyBeganText(d().historyBegan, d().since.at)}
              </p>
              <For each={d().gaps}>
                {(gap) => (
                  <p class="muted small" data-testid="history-gap">
                    Not observed from {when(gap.from)} to {when(gap.to)}: no console or recorder was watching, so what changed then shows as one change somewhere in that stretch.
                  </p>
                )}
              </For>
            </div>
          </>
        )}
      </Show>
      <p class="muted small">
        <kbd>j</kbd>/<kbd>k</kbd> move · <kbd>Enter</kbd> open (the entry in Knowledge; a removed entry’s timeline here) · <kbd>Esc</kbd> close the timeline
      </p>
      <div class="history-body" classList={{ 'with-timeline': !!props.state.timeline }}>
        <ChangeList
          rows={rows()}
          cursor={cursor()}
          loading={changes.data.loading && !data()}
          empty={filtered() ? 'No change of the chosen tiers and kinds in this range.' : 'Nothing changed in this range, as far as history knows.'}
          onSelect={(index) => {
            select(index);
            list?.focus();
          }}
          onOpen={open}
          onTimeline={(row) => props.onState({ sel: row.id, timeline: row.id })}
          ref={(el) => (list = el)}
        />
        <Show when={props.state.timeline} keyed>
          {(id) => (
            <TimelinePanel
              id={id}
              onClose={closeTimeline}
              onOpenInKnowledge={() => {
                const row = timelineRow();
                router.go('knowledge', { open: id, collection: 'all', ...(row ? { openTier: row.place.tier } : {}) });
              }}
            />
          )}
        </Show>
      </div>
    </div>
  );
}
