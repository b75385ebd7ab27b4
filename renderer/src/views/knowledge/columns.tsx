import { For, Show } from 'solid-js';
import type { TableColumn } from '../../components/table/VirtualTable';
import { Badge, badgesWider, PriorityBadge, StatusBadge } from '../../components/Badge';
import { count, expiryText, fixed, when } from '../../state/format';
import { Highlight } from './Highlight';
import type { KnowledgeRow } from './rows';
import { SORT_FIELDS } from './knowledge-query';
import { Term } from '../../components/Term';
import { glossary } from '../../state/glossary';

function QualityCell(props: { row: KnowledgeRow }) {
  const m = () => props.row.markers;
  return (
    <Show when={m()} fallback={<span class="muted">…</span>}>
      {(markers) => (
        <>
          <Show when={markers().quality.evergreen}>
            <Term id="evergreen">
              <Badge tone="ok">evergreen</Badge>
            </Term>
          </Show>
          <Show when={markers().quality.lowUtility}>
            <Term id="low-utility">
              <Badge tone="warn">low utility</Badge>
            </Term>
          </Show>
          <Show when={markers().violationsInWindow > 0}>
            <Badge tone="danger" title="violations in the week before the latest recorded activity">{markers().violationsInWindow} violated</Badge>
          </Show>
        </>
      )}
    </Show>
  );
}

const sortable = (id: string) => id in SORT_FIELDS;

/** The badges the Markers cell shows. */
function markerLabels(row: KnowledgeRow): string[] {
  const m = row.markers;
  if (!m) return [];
  const parts = [m.quality.evergreen ? 'evergreen' : null, m.quality.lowUtility ? 'low utility' : null, m.violationsInWindow > 0 ? `${m.violationsInWindow} violated` : null];
  return parts.filter((part): part is string => part !== null);
}

/** What the Markers cell shows, as one line for its tooltip. */
const markerText = (row: KnowledgeRow): string | undefined => markerLabels(row).join(', ') || undefined;

/**
 * Every column an operator can show, hide and reorder; the first ones are visible by default.
 * The default set fits a 1,600 px window beside the facets (Lesson takes what is left, at least
 * its width); with the detail open at 1,280 px, Lesson, Tier, Status, Priority and Markers stay in view.
 * Clipped cells carry their whole value as a tooltip. A cell clips only when its content is wider
 * than its column (`clip` measures what the cell shows), since each clipped cell costs every frame.
 */
const COLUMNS: TableColumn<KnowledgeRow>[] = [
  // Plain text unless the search marked something: most rows scrolled past have no match.
  {
    id: 'lesson',
    header: 'Lesson',
    width: 220,
    grow: true,
    // A marked match adds padding around each mark: such a lesson always clips.
    clip: (r, available, text) => !!r.match?.lesson.length || text.wider(r.lesson ?? '', available),
    tooltip: (r) => r.lesson ?? undefined,
    cell: (r) => r().match?.lesson.length ? <span class="lesson-cell"><Highlight text={r().lesson ?? ''} ranges={r().match!.lesson} /></span> : (r().lesson ?? ''),
  },
  { id: 'tier', header: 'Tier', description: glossary('tier').text, width: 52, cell: (r) => r().tier },
  { id: 'status', header: 'Status', width: 116, clip: (r, available, text) => badgesWider([r.status ?? 'unknown'], available, text), tooltip: (r) => r.status ?? undefined, cell: (r) => <StatusBadge status={r().status} /> },
  { id: 'priority', header: 'Priority', width: 76, cell: (r) => <Show when={r().collection !== 'rejected'} fallback="—"><PriorityBadge priority={r().priority} /></Show> },
  { id: 'quality', header: 'Markers', description: glossary('markers').text, width: 100, clip: (r, available, text) => badgesWider(markerLabels(r), available, text), tooltip: markerText, cell: (r) => <QualityCell row={r()} /> },
  { id: 'category', header: 'Category', width: 88, clip: (r, available, text) => text.wider(r.category ?? '—', available), tooltip: (r) => r.category ?? undefined, cell: (r) => r().category ?? '—' },
  { id: 'confidence', header: 'Conf.', width: 56, align: 'right', cell: (r) => fixed(r().confidence) },
  { id: 'phases', header: 'Phases', width: 64, align: 'right', cell: (r) => r().collection === 'rejected' ? '—' : `${count(r().phasesAlive)}/${r().maxPhases ?? 'def'}` },
  {
    id: 'expiry',
    header: 'Archives in',
    description: glossary('archives-in').text,
    width: 136,
    clip: (r, available, text) => text.wider(r.markers ? expiryText(r.markers.expiry) : '…', available),
    tooltip: (r) => (r.markers ? expiryText(r.markers.expiry) : undefined),
    cell: (r) => <span classList={{ warn: !!r().markers?.expiry && r().markers!.expiry!.phasesLeft <= 2 }}>{r().markers ? expiryText(r().markers!.expiry) : '…'}</span>,
  },
  { id: 'updated', header: 'Updated (UTC)', width: 156, cell: (r) => when(r().updatedAt) },
  { id: 'project', header: 'Project', width: 104, clip: (r, available, text) => text.wider(r.project ?? '—', available), tooltip: (r) => r.project ?? undefined, cell: (r) => r().project ?? '—' },
  { id: 'scope', header: 'Scope', width: 110, clip: (r, available, text) => text.wider(r.scope ?? '—', available), tooltip: (r) => r.scope ?? undefined, cell: (r) => r().scope ?? '—' },
  { id: 'tags', header: 'Tags', width: 180, clip: (r, available, text) => badgesWider(r.tags, available, text), tooltip: (r) => r.tags.join(', ') || undefined, cell: (r) => <For each={r().tags}>{(tag) => <Badge tone="muted">{tag}</Badge>}</For> },
  { id: 'created', header: 'Created (UTC)', width: 156, cell: (r) => when(r().createdAt) },
  { id: 'encounter', header: 'Encounter', width: 80, align: 'right', cell: (r) => r().tier === 'hive' ? fixed(r().encounterScore) : '—' },
  { id: 'shown', header: 'Shown', width: 60, align: 'right', cell: (r) => count(r().markers?.shown ?? r().shownCount) },
];

export const KNOWLEDGE_COLUMNS: TableColumn<KnowledgeRow>[] = COLUMNS.map((column) => ({ ...column, sortable: sortable(column.id) }));

export const DEFAULT_HIDDEN = ['confidence', 'phases', 'scope', 'tags', 'created', 'encounter', 'shown'];
