import { For, Show, type JSX } from 'solid-js';
import type { RestorePreview as Preview } from '../../../../shared/contract/history';
import { plural, when } from '../../state/format';
import { reasonText } from '../../state/history-words';

/**
 * Everything the person confirms before a forgotten entry comes back: the exact line appended,
 * the store file, what changes, the warnings, and — when the store is at the plugin's cap — that
 * the plugin may evict it again, and which entry it would evict first.
 */
export function RestorePreview(props: { preview: Preview }): JSX.Element {
  const status = () => props.preview;
  return (
    <section class="restore-preview" data-testid="restore-preview">
      <h3>Preview: restore {props.preview.id} to the {props.preview.tier} tier’s active store</h3>
      <p class="lesson-text">{props.preview.lesson}</p>
      <p class="muted small">It left because: {reasonText(props.preview.reason)}</p>
      <Show when={props.preview.cap} keyed>
        {(cap) => (
          <p class="banner warn" role="status" data-testid="restore-cap">
            {cap.text}{' '}
            {cap.evictFirst ? (
              <>
                The plugin would evict first: <span class="mono">{cap.evictFirst.id}</span> — <span>{cap.evictFirst.lesson}</span>
              </>
            ) : (
              'The console cannot tell which entry the plugin would evict first.'
            )}
          </p>
        )}
      </Show>
      <Show when={props.preview.warnings.length}>
        <ul class="warn" data-testid="restore-warnings">
          <For each={props.preview.warnings}>{(w) => <li>{w}</li>}</For>
        </ul>
      </Show>
      <dl class="fields">
        <dt>Store file</dt>
        <dd class="mono" data-testid="restore-store-file">
          {props.preview.storeFile}
        </dd>
        <dt>Line appended</dt>
        <dd>
          <pre data-testid="restore-line">{props.preview.line}</pre>
        </dd>
        <Show when={status().restoreStatus}>
          <dt>Status</dt>
          <dd data-testid="restore-status">
            {status().restoreStatus}
            <Show when={status().restoreStatusWhy}> — {status().restoreStatusWhy}</Show>
          </dd>
        </Show>
        <dt>Version</dt>
        <dd class="mono">sha256 {props.preview.versionSha256.slice(0, 12)}… as history recorded it</dd>
        <dt>Effects</dt>
        <dd>
          <ul data-testid="restore-effects">
            <For each={props.preview.effects}>{(effect) => <li>{effect}</li>}</For>
          </ul>
        </dd>
        <dt>Store now</dt>
        <dd class="mono">
          {plural(props.preview.store.entryCount, 'entry', 'entries')} · sha256 {props.preview.store.fileSha256.slice(0, 12)}…
        </dd>
        <dt>Token</dt>
        <dd class="mono">
          {props.preview.token12.slice(0, 8)}… (expires {when(props.preview.expiresAt)})
        </dd>
      </dl>
    </section>
  );
}
