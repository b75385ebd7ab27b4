import { createMemo, createSignal, For, onMount, Show, type JSX } from 'solid-js';
import { QUEUE_KINDS, type QueueItem } from '../../../../shared/contract/skills';
import { useApi } from '../../api/port';
import { createQuery, freshQuery } from '../../state/query';
import { CommandPanel } from './CommandPanel';
import { DecisionPanel, type Decision } from './DecisionPanel';
import { DismissPanel } from './DismissPanel';
import { orderedQueue, queueKey, queuePosition, queueProgress } from './queue-state';
import { queueSession, updateQueueSession } from './queue-session';
import { SKILL_STORES } from './skill-stores';
import { plural } from '../../state/format';

const KIND_LABEL: Record<(typeof QUEUE_KINDS)[number], string> = {
  skill_draft: 'Skill drafts',
  curator_recommendation: 'Curator recommendations',
  rejected_lesson: 'Rejected lessons',
  unactionable_lesson: 'Unactionable lessons',
  hive_contradiction: 'Hive contradictions',
  repeated_denial: 'Repeated denials',
};

/**
 * Everything waiting for a person in one keyboard-first list: j/k move, Enter opens, a approves
 * and r rejects (each opens the confirmation), s skips. Filters live in the URL. Items without a
 * store-writing decision are dismissed instead: r asks for a reason, a marks them reviewed.
 */
export function ReviewQueue(props: { kinds: string[]; onKinds: (kinds: string[]) => void; onOpen: (item: QueueItem) => void }): JSX.Element {
  const queue = freshQuery(SKILL_STORES, 'review.queue', () => ({}));
  const counters = createQuery('live.counters', () => ({ limit: 100 }));
  const rules = createQuery('live.rules', () => ({}));
  // The place, the skips and what was decided here outlive this component (queue-session.ts): opening an item and coming back keeps them.
  const skipped = () => queueSession().skipped;
  const setSkipped = (keys: string[]) => updateQueueSession((s) => ({ ...s, skipped: keys }));
  const markDecided = (key: string) => updateQueueSession((s) => ({ ...s, decided: [...s.decided.filter((k) => k !== key), key] }));
  const [note, setNote] = createSignal<string | null>(null);
  const [deciding, setDeciding] = createSignal<{ item: QueueItem; decision: Decision } | null>(null);
  const [dismissing, setDismissing] = createSignal<QueueItem | null>(null);
  const api = useApi();
  let list: HTMLDivElement | undefined;

  const denials = createMemo((): QueueItem[] => {
    const threshold = rules.data()?.threshold ?? 3;
    return (counters.data() ?? [])
      .filter((c) => c.lastDay >= threshold)
      .map((c) => ({
        // A new denial changes lastTime, so a dismissed directive comes back when it is denied again.
        key: `denial:${c.directiveId}@${c.lastTime}`,
        kind: 'repeated_denial' as const,
        title: `Directive ${c.directiveId} denied ${plural(c.lastDay, 'time')} in the last day`,
        detail: c.tools.map((t) => `${t.tool} ×${t.count}`).join(', '),
        at: new Date(c.lastTime).toISOString(),
        open: { view: 'live' as const, slug: null, entryId: c.directiveId, tier: null },
        actions: [],
        command: null,
      }));
  });
  const dismissedKeys = createMemo(() => new Set(queue.data()?.dismissedKeys ?? []));
  const openDenials = () => denials().filter((d) => !dismissedKeys().has(d.key));
  const dismissedCount = () => (queue.data()?.dismissed ?? 0) + denials().length - openDenials().length;
  // The list is three answers (the queue, and the gate counters and rules its denial items come from): show it only once
  // all have answered, so no count, progress or "nothing is waiting" is ever read off a partial list.
  const answered = (data: { state: string }) => data.state === 'ready' || data.state === 'refreshing' || data.state === 'errored';
  const loaded = () => answered(queue.data) && answered(counters.data) && answered(rules.data);
  const all = () => (loaded() ? [...(queue.data()?.items ?? []), ...openDenials()] : []);
  const dismiss = async (item: QueueItem, reason: string) => {
    await api.call('review.dismiss', { key: item.key, reason });
    markDecided(item.key);
    setDismissing(null);
    setSkipped(skipped().filter((k) => k !== item.key));
    queue.refetch();
    list?.focus();
  };
  // Called after every commit attempt: an item counts as decided once it has left the queue.
  const decided = (item: QueueItem) => {
    markDecided(item.key);
    queue.refetch();
  };
  const visible = createMemo(() => orderedQueue(all(), props.kinds, skipped()));
  const count = (kind: string) => all().filter((i) => i.kind === kind).length;
  const index = () => queuePosition(visible(), queueSession());
  const setIndex = (i: number) => updateQueueSession((s) => ({ ...s, index: i, current: visible()[i]?.key ?? null }));
  const current = () => visible()[index()];
  const waiting = createMemo(() => new Set(all().map((item) => item.key)));
  const progress = () => (loaded() ? queueProgress(visible(), index(), queueSession(), waiting()) : '');

  const onKey = (event: KeyboardEvent) => {
    const target = event.target as HTMLElement;
    if (target.closest('input, textarea, select, button, [contenteditable]') && target !== list) return;
    if (event.key === 'Escape') {
      setDeciding(null);
      setDismissing(null);
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const command = queueKey(event.key, visible(), index());
    if (command.type === 'none') {
      if (command.note) setNote(command.note);
      return;
    }
    event.preventDefault();
    setNote(null);
    if (command.type === 'move') setIndex(command.index);
    else if (command.type === 'open') {
      setIndex(index());
      props.onOpen(command.item);
    }
    else if (command.type === 'skip') {
      // The skipped item goes last; the place stays where it was, now on the next item.
      const at = index();
      setSkipped([...skipped().filter((k) => k !== command.key), command.key]);
      setIndex(at);
    }
    else if (command.type === 'dismiss') {
      if (command.reason === null) setDismissing(command.item);
      else void dismiss(command.item, command.reason).catch((failure: unknown) => setNote(failure instanceof Error ? failure.message : String(failure)));
    }
    else setDeciding({ item: command.item, decision: command.type === 'approve' ? 'apply' : 'reject' });
  };
  onMount(() => list?.focus());

  const toggle = (kind: string) => props.onKinds(props.kinds.includes(kind) ? props.kinds.filter((k) => k !== kind) : [...props.kinds, kind]);

  return (
    <div class="review-queue" data-testid="review-queue">
      <div class="queue-counts" data-testid="queue-counts">
        <For each={QUEUE_KINDS}>
          {(kind) => (
            <button classList={{ primary: props.kinds.includes(kind) }} aria-pressed={props.kinds.includes(kind)} data-testid={`queue-kind-${kind}`} onClick={() => toggle(kind)}>
              {KIND_LABEL[kind]} <span class="count">{count(kind)}</span>
            </button>
          )}
        </For>
        <span class="queue-progress" data-testid="queue-progress">
          {progress()}
        </span>
        <span class="muted" data-testid="queue-dismissed">
          {dismissedCount()} dismissed
        </span>
      </div>
      <p class="muted">
        <kbd>j</kbd>/<kbd>k</kbd> move · <kbd>Enter</kbd> open · <kbd>a</kbd> approve · <kbd>r</kbd> reject with reason · <kbd>s</kbd> skip (for this tab: kept while you open items and come back) · <kbd>Esc</kbd> close the confirmation. Items with nothing to approve or reject: <kbd>r</kbd> dismiss with a reason, <kbd>a</kbd> mark reviewed (kept in the console’s data, back if the item changes)
      </p>
      <Show when={note()}>
        <p class="banner warn" data-testid="queue-note">
          {note()}
        </p>
      </Show>
      <div class="queue-list" tabIndex={0} ref={list} onKeyDown={onKey} data-testid="queue-list" aria-label="Review queue" role="listbox" aria-activedescendant={current() ? `queue-${current()!.key}` : undefined}>
        <For
          each={visible()}
          fallback={
            <Show when={loaded()} fallback={<p class="muted" data-testid="queue-loading">Loading the queue…</p>}>
              <p class="muted" data-testid="queue-empty">
                Nothing is waiting for a person{props.kinds.length ? ' in the chosen kinds' : ''}.{dismissedCount() ? ` ${dismissedCount()} dismissed.` : ''}
              </p>
            </Show>
          }
        >
          {(item, i) => (
            <div
              id={`queue-${item.key}`}
              role="option"
              aria-selected={current()?.key === item.key}
              class="queue-item"
              classList={{ current: current()?.key === item.key, skipped: skipped().includes(item.key) }}
              data-testid="queue-item"
              data-key={item.key}
              data-command={item.command?.preview ?? ''}
              onClick={() => setIndex(i())}
            >
              <span class={`badge kind-${item.kind}`}>{KIND_LABEL[item.kind]}</span> {item.title}
              <div class="muted">{item.detail}</div>
            </div>
          )}
        </For>
      </div>
      <Show when={dismissing()} keyed>
        {(item) => <DismissPanel item={item} dismiss={(reason) => dismiss(item, reason)} onCancel={() => (setDismissing(null), list?.focus())} />}
      </Show>
      <Show when={deciding()} keyed>
        {(d) => (
          <div class="queue-decision" data-testid="queue-decision" onKeyDown={(e) => e.key === 'Escape' && (setDeciding(null), list?.focus())}>
            <Show when={d.item.command} keyed fallback={<DecisionPanel item={{ slug: d.item.open.slug ?? '', kind: 'draft' }} start={d.decision} onDone={() => decided(d.item)} />}>
              {(command) => <CommandPanel command={command} onDone={() => decided(d.item)} />}
            </Show>
            <button type="button" onClick={() => (setDeciding(null), list?.focus())}>
              Back to the queue
            </button>
          </div>
        )}
      </Show>
    </div>
  );
}
