import { For, Show, type JSX } from 'solid-js';
import type { Output } from '../../../../shared/contract';
import { when, plural } from '../../state/format';
import { Term } from '../../components/Term';

type Preview = Output<'hive.quarantine.preview'>;

/** Everything the person confirms: each entry with its line hash, the store fingerprint, the blast radius, the token. */
export function QuarantinePreview(props: { preview: Preview }): JSX.Element {
  const radius = () => props.preview.blastRadius;
  return (
    <section class="quarantine-preview" data-testid="quarantine-preview">
      <h3>Preview: {props.preview.entries.length} {props.preview.entries.length === 1 ? 'entry' : 'entries'} would move to the quarantine sidecar</h3>
      <table class="plain">
        <thead>
          <tr>
            <th>Id</th>
            <th>Status</th>
            <th>Confidence</th>
            <th>Source project</th>
            <th>Lineage actor</th>
            <th>Line sha256</th>
            <th>Lesson</th>
          </tr>
        </thead>
        <tbody>
          <For each={props.preview.entries}>
            {(entry) => (
              <tr>
                <td class="mono">{entry.id}</td>
                <td>{entry.status ?? '—'}</td>
                <td>{entry.confidence ?? '—'}</td>
                <td>{entry.sourceProject ?? '—'}</td>
                <td>{entry.lineageActor ?? '—'}</td>
                <td class="mono">{entry.lineSha256.slice(0, 12)}…</td>
                <td>{entry.lesson}</td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
      <dl class="fields">
        <dt>Store</dt>
        <dd class="mono" data-testid="preview-fingerprint">
          {props.preview.store.path} · {plural(props.preview.store.entryCount, 'entry', 'entries')} · {props.preview.store.byteLength} bytes · sha256 {props.preview.store.fileSha256.slice(0, 12)}…
        </dd>
        <dt>Console version</dt>
        <dd>{props.preview.consoleVersion}</dd>
        <dt>Token</dt>
        <dd class="mono" data-testid="preview-token">
          {props.preview.token12.slice(0, 8)}… (expires {when(props.preview.expiresAt)})
        </dd>
      </dl>
      <h4>
        <Term id="blast-radius">Blast radius</Term>
      </h4>
      <ul class="blast-radius" data-testid="blast-radius">
        <li>
          Skills citing it: <For each={radius().skills} fallback={'none'}>{(s) => <span class="mono">{s.skill} ({s.entryId}) </span>}</For>
        </li>
        <li>
          Projects that confirmed it: <For each={radius().confirmedBy} fallback={'none'}>{(c) => <span>{c.project} ({c.entryId}) </span>}</For>
        </li>
        <li>
          Link stores holding the same id: <For each={radius().linkStores} fallback={'none'}>{(l) => <span class="mono">{l.linkId} ({l.entryId}) </span>}</For>
        </li>
        <li>
          Directives, receipts and events mentioning it:{' '}
          <For each={radius().references} fallback={'none'}>{(r) => <span class="mono">{r.file.split('/').slice(-2).join('/')} ×{r.lines} ({r.entryId}) </span>}</For>
        </li>
        <Show when={radius().notes.length}>
          <li class="muted">{radius().notes.join('; ')}</li>
        </Show>
      </ul>
    </section>
  );
}
