import { Match, Show, Switch } from 'solid-js';
import { createQuery } from '../../state/query';
import { Figures } from '../../components/Figures';
import { displayGroups } from '../../state/counter-figures';

/**
 * What the console knows about one directive a denial names: the entry (lesson, priority,
 * confidence), its receipt funnel and its open obligations. Each piece loads on its own and says
 * so plainly when the stores do not have it.
 */
export function DirectiveCard(props: { id: string; onJump: (target: 'entry' | 'receipts' | 'skills', id: string) => void }) {
  const entry = createQuery('stores.entries', () => ({ filter: { id: props.id }, limit: 1, facets: false }));
  const funnel = createQuery('receipts.funnel', () => ({ entry: props.id, limit: 1 }));
  const obligations = createQuery('receipts.obligations', () => ({ status: 'open' as const }));
  const found = () => entry.data()?.items[0];
  const row = () => funnel.data()?.rows.find((r) => r.entryId === props.id);
  const open = () => obligations.data()?.obligations.filter((o) => o.entryId === props.id).length;

  return (
    <article class="live-directive" data-testid="directive-card" data-directive={props.id}>
      <header>
        <b class="mono">{props.id}</b>
        <span class="spacer" />
        <button type="button" class="link-button" onClick={() => props.onJump('entry', props.id)} title="Open the entry (e)">
          entry
        </button>
        <button type="button" class="link-button" onClick={() => props.onJump('receipts', props.id)} title="Its receipts (r)">
          receipts
        </button>
        <button type="button" class="link-button" onClick={() => props.onJump('skills', props.id)} title="Its skill (s)">
          skill
        </button>
      </header>
      <Switch>
        <Match when={entry.data.loading}>
          <p class="muted small">Looking it up…</p>
        </Match>
        <Match when={entry.data.error}>
          <p class="muted small">The knowledge index is not available: {(entry.data.error as Error)?.message}</p>
        </Match>
        <Match when={found()}>
          {(e) => (
            <>
              <p class="live-lesson">{e().lesson ?? '(no lesson text)'}</p>
              <p class="small">
                priority <b>{e().priority ?? '—'}</b> · confidence <b>{e().confidence?.toFixed(2) ?? '—'}</b> · {e().status ?? 'no status'} · {e().tier}
              </p>
            </>
          )}
        </Match>
        <Match when={!found()}>
          <p class="muted small">Not in this workspace's stores (another project, or an id the plugin made up).</p>
        </Match>
      </Switch>
      <div class="small" data-testid="directive-receipts">
        <Show when={row()} fallback={<span class="muted">receipts: none recorded</span>}>
          {(r) => <Figures groups={displayGroups(r().total, r().acknowledged).filter((g) => g.id !== 'phase-outcomes')} testIdPrefix="card" />}
        </Show>
        <Show when={open() !== undefined}>
          <div class="muted">{`open obligations: ${open()}`}</div>
        </Show>
      </div>
    </article>
  );
}
