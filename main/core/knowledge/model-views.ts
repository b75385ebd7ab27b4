import type { DirectiveRow } from '../../../shared/contract/knowledge';
import { isDirective } from '../rules/directive-fields';
import { entryId, entryStatus, type RawEntry } from '../rules/entry-fields';
import { isActiveStatus } from '../rules/thresholds';
import { ChunkedList } from './chunked-list';
import { EventIndex } from './event-index';
import { KeyedTable } from './keyed-table';
import { LayeredLookup } from './layered-lookup';
import type { EventRef, KnowledgeInputs, SourceEntry } from './model-types';

/**
 * The per-model views every knowledge request reads, and the two ways to get them: a full build
 * over every entry (`buildViews`, time-sliced by its caller) and growing the previous model's
 * views by appended lines (`growViews`), whose work is in proportion to the lines appended: the
 * views are chunked lists, so a changed view copies the chunk it changed and its spine, and shares
 * the rest with the previous model's (which stays intact). Both give the same views: the equality
 * tests (incremental-model.test.ts, model-views.test.ts) hold them to it.
 */
export interface ModelViews {
  /** Lessons of the main stores (swarm, link and hive files), any status, file order. */
  lessons: ChunkedList<SourceEntry>;
  /** Every copy of an id (any store), file order; an only copy is kept bare (see copiesOf). */
  byId: LayeredLookup<Copies>;
  eventsById: Map<string, EventRef[]>;
  /** Lessons with directive fields (file order) and their rows, index for index. */
  directiveSources: ChunkedList<SourceEntry>;
  directives: ChunkedList<DirectiveRow>;
  groups: { group: 'project' | 'hive'; entries: ChunkedList<SourceEntry> }[];
  /** The lessons behind `sources.swarm` / `sources.hive`, index for index. */
  sourceEntries: { swarm: ChunkedList<SourceEntry>; hive: ChunkedList<SourceEntry> };
  sources: { swarm: ChunkedList<RawEntry>; hive: ChunkedList<RawEntry>; retractions: RawEntry[] };
  /** The triage inboxes' entries (rejected and unactionable collections), file order. */
  triage: { rejected: ChunkedList<SourceEntry>; unactionable: ChunkedList<SourceEntry> };
}

/** The copies of an id: nearly every id has one, kept bare (a list each would cost more than the entry's shell). */
export type Copies = SourceEntry | readonly SourceEntry[];

export const copiesOf = (copies: Copies | undefined): SourceEntry[] =>
  copies === undefined ? [] : Array.isArray(copies) ? (copies as SourceEntry[]) : [copies as SourceEntry];

/** The id of a set of copies (none when it is empty: the id then has no copy). */
const keyOfCopies = (copies: Copies): string | undefined => {
  const entry = Array.isArray(copies) ? (copies as readonly SourceEntry[])[0] : (copies as SourceEntry);
  return entry === undefined ? undefined : entryId(entry.value);
};

const keptCopies = (list: SourceEntry[]): Copies => (list.length === 1 ? list[0]! : list);

/** File order of two entries. */
export type EntryOrder = (a: SourceEntry, b: SourceEntry) => number;

/** Items between two chances to give the event loop back (as in TimeSlicer). */
const STEP = 64;

function* each<T>(items: Iterable<T>, fn: (item: T) => void): Generator<void> {
  let n = 0;
  for (const item of items) {
    fn(item);
    if (++n % STEP === 0) yield;
  }
}

function eventIndex(inputs: Pick<KnowledgeInputs, 'knowledgeEvents' | 'applicationLog'>): Map<string, EventRef[]> {
  const index = new EventIndex();
  for (const event of inputs.knowledgeEvents) index.addKnowledgeEvent(event);
  for (const event of inputs.applicationLog) index.addLegacyLine(event);
  return index.finish();
}

const tierGroupOf = (e: SourceEntry) => (e.tier === 'hive' ? 1 : 0);

/** The one full build; yields every STEP items so the caller can slice it. `adopted` views are taken as they are. */
export function* buildViews(inputs: KnowledgeInputs, rowOf: (source: SourceEntry) => DirectiveRow, adopted: Partial<ModelViews>): Generator<void, ModelViews> {
  let lessons = adopted.lessons;
  if (!lessons) {
    const list: SourceEntry[] = [];
    yield* each(inputs.entries, (e) => e.collection === 'active' && list.push(e));
    lessons = ChunkedList.from(list);
  }
  let byId = adopted.byId;
  if (!byId) {
    // Ids with several copies are gathered in a Map (few); the rest go to the compact table as they are.
    const all: Copies[] = [];
    const several = new Map<string, SourceEntry[]>();
    const first = new Map<string, number>();
    yield* each(inputs.entries, (entry) => {
      const key = entryId(entry.value);
      const at = first.get(key);
      if (at === undefined) {
        first.set(key, all.length);
        all.push(entry);
        return;
      }
      const list = several.get(key);
      if (list) list.push(entry);
      else several.set(key, [all[at] as SourceEntry, entry]);
    });
    for (const [key, list] of several) all[first.get(key)!] = list;
    byId = LayeredLookup.of(KeyedTable.of(all, keyOfCopies));
  }
  let { directives, directiveSources } = adopted;
  if (!directives || !directiveSources) {
    const rows: DirectiveRow[] = [];
    const sourcesOfRows: SourceEntry[] = [];
    yield* each(lessons, (source) => {
      if (!isDirective(source.value)) return;
      rows.push(rowOf(source));
      sourcesOfRows.push(source);
    });
    [directives, directiveSources] = [ChunkedList.from(rows), ChunkedList.from(sourcesOfRows)];
  }
  let groups = adopted.groups;
  if (!groups) {
    const split: SourceEntry[][] = [[], []];
    yield* each(lessons, (e) => isActiveStatus(entryStatus(e.value)) && split[tierGroupOf(e)]!.push(e));
    groups = [
      { group: 'project', entries: ChunkedList.from(split[0]!) },
      { group: 'hive', entries: ChunkedList.from(split[1]!) },
    ];
  }
  const eventsById = adopted.eventsById ?? eventIndex(inputs);
  let { sources, sourceEntries } = adopted;
  if (!sources || !sourceEntries) {
    const split: SourceEntry[][] = [[], []];
    yield* each(lessons, (e) => split[tierGroupOf(e)]!.push(e));
    sourceEntries = { swarm: ChunkedList.from(split[0]!), hive: ChunkedList.from(split[1]!) };
    sources = { swarm: ChunkedList.from(split[0]!.map((e) => e.value)), hive: ChunkedList.from(split[1]!.map((e) => e.value)), retractions: inputs.retractions };
  }
  let triage = adopted.triage;
  if (!triage) {
    const found: { rejected: SourceEntry[]; unactionable: SourceEntry[] } = { rejected: [], unactionable: [] };
    yield* each(inputs.entries, (e) => (e.collection === 'rejected' || e.collection === 'unactionable') && found[e.collection].push(e));
    triage = { rejected: ChunkedList.from(found.rejected), unactionable: ChunkedList.from(found.unactionable) };
  }
  return { lessons, byId, eventsById, directiveSources, directives, groups, sourceEntries, sources, triage };
}

/**
 * `list` (in file order) with `added` (in file order) put in their places; `values` (index for
 * index with `list`) gets `valueOf` of each at the same place, or is null for a view that is a
 * list of entries alone. Few additions are inserted by binary search (each copies one chunk of the
 * list, not the list); many are merged in one pass.
 */
export function insertInOrder<T>(
  list: ChunkedList<SourceEntry>,
  values: ChunkedList<T> | null,
  added: readonly SourceEntry[],
  compare: EntryOrder,
  valueOf: (entry: SourceEntry) => T,
): { list: ChunkedList<SourceEntry>; values: ChunkedList<T> | null } {
  if (added.length > 64) return mergeInOrder(list, values, added, compare, valueOf);
  for (const entry of added) {
    const at = list.upperBound(entry, compare);
    list = list.insertAt(at, entry);
    values = values && values.insertAt(at, valueOf(entry));
  }
  return { list, values };
}

/**
 * `list` (file order) without the `removed` entries, `values` index for index (or null, as in
 * insertInOrder); `gone` are the values that went with them (the entries when `values` is null).
 * Few removals are found by binary search, many in one pass.
 */
export function removeFromOrder<T>(
  list: ChunkedList<SourceEntry>,
  values: ChunkedList<T> | null,
  removed: readonly SourceEntry[],
  compare: EntryOrder,
): { list: ChunkedList<SourceEntry>; values: ChunkedList<T> | null; gone: (T | SourceEntry)[] } {
  const gone: (T | SourceEntry)[] = [];
  if (removed.length <= 64) {
    for (const entry of removed) {
      const at = indexInOrder(list, entry, compare);
      if (at < 0) continue;
      gone.push(values ? values.at(at)! : list.at(at)!);
      list = list.removeAt(at);
      values = values && values.removeAt(at);
    }
    return { list, values, gone };
  }
  const drop = new Set(removed);
  const outList: SourceEntry[] = [];
  const outValues: T[] | null = values && [];
  const valueAt = values?.toArray();
  list.forEach((entry, i) => {
    if (drop.has(entry)) gone.push(valueAt ? valueAt[i]! : entry);
    else {
      outList.push(entry);
      outValues?.push(valueAt![i]!);
    }
  });
  return { list: ChunkedList.from(outList), values: outValues && ChunkedList.from(outValues), gone };
}

/** insertInOrder for many additions: one merge pass (`added` sorted in file order). */
function mergeInOrder<T>(list: ChunkedList<SourceEntry>, values: ChunkedList<T> | null, added: readonly SourceEntry[], compare: EntryOrder, valueOf: (entry: SourceEntry) => T) {
  const sorted = [...added].sort(compare);
  const [entries, valueAt] = [list.toArray(), values?.toArray()];
  const outList: SourceEntry[] = [];
  const outValues: T[] | null = values && [];
  let i = 0;
  for (const entry of sorted) {
    while (i < entries.length && compare(entries[i]!, entry) <= 0) {
      outList.push(entries[i]!);
      outValues?.push(valueAt![i]!);
      i++;
    }
    outList.push(entry);
    outValues?.push(valueOf(entry));
  }
  for (; i < entries.length; i++) {
    outList.push(entries[i]!);
    outValues?.push(valueAt![i]!);
  }
  return { list: ChunkedList.from(outList), values: outValues && ChunkedList.from(outValues) };
}

/** `list` with the removed entries taken out and the added ones put in their places (both in file order), values index for index. */
function replaceInOrder<T>(list: ChunkedList<SourceEntry>, values: ChunkedList<T>, removed: readonly SourceEntry[], added: readonly SourceEntry[], compare: EntryOrder, valueOf: (entry: SourceEntry) => T) {
  const kept = removeFromOrder(list, values, removed, compare);
  const grown = insertInOrder(kept.list, kept.values, added, compare, valueOf);
  return { list: grown.list, values: grown.values!, gone: kept.gone as T[] };
}

const same = (e: SourceEntry) => e;

/** A view that is a list of entries: `list` with the removed entries taken out and the added ones put in their places. */
function replaceEntries(list: ChunkedList<SourceEntry>, removed: readonly SourceEntry[], added: readonly SourceEntry[], compare: EntryOrder): ChunkedList<SourceEntry> {
  return insertInOrder(removeFromOrder(list, null, removed, compare).list, null, added, compare, same).list;
}

/** The copies of one id with the gone ones taken out and the added ones put in file order (an id has few copies). */
function replaceCopies(copies: readonly SourceEntry[], removed: readonly SourceEntry[], added: readonly SourceEntry[], compare: EntryOrder): SourceEntry[] {
  const drop = new Set(removed);
  return [...copies.filter((entry) => !drop.has(entry)), ...added].sort(compare);
}

/** The entries changed since the previous views: lines added, and lines gone (a rewritten file's old lines, a deleted file's). */
export interface ViewChange {
  added: readonly SourceEntry[];
  removed: readonly SourceEntry[];
  compare: EntryOrder;
}

/**
 * The previous views with the changed entries applied, in work proportional to them: each view
 * drops the gone entries that were in it and gets the added ones that belong in it, at their
 * place in file order. Events are taken over when they are the same inputs, else re-indexed
 * (FIFO-capped: small). `removedRows` are the directive rows that went with gone lessons.
 */
export function growViews(
  previous: ModelViews,
  previousInputs: KnowledgeInputs,
  inputs: KnowledgeInputs,
  { added, removed, compare }: ViewChange,
  rowOf: (source: SourceEntry) => DirectiveRow,
  /** False when counters or thresholds changed too: every row is then computed again. */
  rowsValid: boolean,
): { views: ModelViews; removedRows: DirectiveRow[] } {
  const appended = [...added].sort(compare);
  const gone = [...removed].sort(compare);
  const lessonsOf = (list: readonly SourceEntry[]) => list.filter((e) => e.collection === 'active');
  const [lessonsAdded, lessonsGone] = [lessonsOf(appended), lessonsOf(gone)];
  const lessons = replaceEntries(previous.lessons, lessonsGone, lessonsAdded, compare);

  const perId = new Map<string, { gone: SourceEntry[]; added: SourceEntry[] }>();
  const note = (entry: SourceEntry, side: 'gone' | 'added') => {
    const id = entryId(entry.value);
    let change = perId.get(id);
    if (!change) perId.set(id, (change = { gone: [], added: [] }));
    change[side].push(entry);
  };
  for (const entry of gone) note(entry, 'gone');
  for (const entry of appended) note(entry, 'added');
  const changedIds = new Map<string, Copies>();
  for (const [id, change] of perId) {
    const copies = copiesOf(previous.byId.get(id));
    changedIds.set(id, keptCopies(replaceCopies(copies, change.gone, change.added, compare)));
  }
  const byId = previous.byId.with(changedIds);

  const directivesOf = (list: readonly SourceEntry[]) => list.filter((e) => isDirective(e.value));
  const rows = rowsValid ? previous.directives : ChunkedList.from(previous.directiveSources.map(rowOf));
  const directives = replaceInOrder(previous.directiveSources, rows, directivesOf(lessonsGone), directivesOf(lessonsAdded), compare, rowOf);

  const activeOf = (list: readonly SourceEntry[], group: string) => list.filter((e) => isActiveStatus(entryStatus(e.value)) && (group === 'hive') === (e.tier === 'hive'));
  const groups = previous.groups.map(({ group, entries }) => ({
    group,
    entries: replaceEntries(entries, activeOf(lessonsGone, group), activeOf(lessonsAdded, group), compare),
  }));

  const tierOf = (list: readonly SourceEntry[], hive: boolean) => list.filter((e) => (e.tier === 'hive') === hive);
  const swarm = replaceInOrder(previous.sourceEntries.swarm, previous.sources.swarm, tierOf(lessonsGone, false), tierOf(lessonsAdded, false), compare, (e) => e.value);
  const hive = replaceInOrder(previous.sourceEntries.hive, previous.sources.hive, tierOf(lessonsGone, true), tierOf(lessonsAdded, true), compare, (e) => e.value);

  const collectionOf = (list: readonly SourceEntry[], collection: string) => list.filter((e) => e.collection === collection);
  const triageOf = (collection: 'rejected' | 'unactionable') =>
    replaceEntries(previous.triage[collection], collectionOf(gone, collection), collectionOf(appended, collection), compare);

  const eventsSame = previousInputs.knowledgeEvents === inputs.knowledgeEvents && previousInputs.applicationLog === inputs.applicationLog;
  const views: ModelViews = {
    lessons,
    byId,
    eventsById: eventsSame ? previous.eventsById : eventIndex(inputs),
    directiveSources: directives.list,
    directives: directives.values,
    groups,
    sourceEntries: { swarm: swarm.list, hive: hive.list },
    sources: { swarm: swarm.values, hive: hive.values, retractions: inputs.retractions },
    triage: { rejected: triageOf('rejected'), unactionable: triageOf('unactionable') },
  };
  return { views, removedRows: rowsValid ? directives.gone : [] };
}

/** Where `entry` sits in `list` (file order), or -1. */
function indexInOrder(list: ChunkedList<SourceEntry>, entry: SourceEntry, compare: EntryOrder): number {
  for (let i = list.lowerBound(entry, compare); i < list.length; i++) {
    const other = list.at(i)!;
    if (compare(other, entry) !== 0) break;
    if (other === entry) return i;
  }
  return -1;
}

/**
 * The directive rows after a counter change, computing again only the rows it can have changed:
 * those of ids whose rollup changed and, when the "this week" anchor moved, those with violation
 * timestamps (the only rows the anchor enters). Returns the rows and each replaced pair.
 */
export function patchDirectiveRows(
  views: Pick<ModelViews, 'byId' | 'directiveSources' | 'directives'>,
  changes: { ids: ReadonlySet<string>; asOfMoved: boolean },
  compare: EntryOrder,
  rowOf: (source: SourceEntry) => DirectiveRow,
): { directives: ChunkedList<DirectiveRow>; replaced: [DirectiveRow, DirectiveRow][] } {
  const positions = new Set<number>();
  for (const id of changes.ids) {
    for (const copy of copiesOf(views.byId.get(id))) {
      if (copy.collection !== 'active' || !isDirective(copy.value)) continue;
      const at = indexInOrder(views.directiveSources, copy, compare);
      if (at >= 0) positions.add(at);
    }
  }
  if (changes.asOfMoved) views.directives.forEach((row, i) => row.lastViolationAt !== null && positions.add(i));
  const replaced: [DirectiveRow, DirectiveRow][] = [];
  const changed: [number, DirectiveRow][] = [];
  for (const at of [...positions].sort((a, b) => a - b)) {
    const next = rowOf(views.directiveSources.at(at)!);
    replaced.push([views.directives.at(at)!, next]);
    changed.push([at, next]);
  }
  return { directives: views.directives.withItems(changed), replaced };
}
