import type { DirectiveRow } from '../../../shared/contract/knowledge';
import { isDirective } from '../rules/directive-fields';
import { entryId, entryStatus, type RawEntry } from '../rules/entry-fields';
import { isActiveStatus } from '../rules/thresholds';
import { EventIndex } from './event-index';
import { LayeredLookup } from './layered-lookup';
import type { EventRef, KnowledgeInputs, SourceEntry } from './model-types';

/**
 * The per-model views every knowledge request reads, and the two ways to get them: a full build
 * over every entry (`buildViews`, time-sliced by its caller) and growing the previous model's
 * views by appended lines (`growViews`), whose work is in proportion to the lines appended (plus
 * array copies, which are memory moves, not per-entry work). Both give the same views: the
 * equality test (incremental-model.test.ts) holds them to it.
 */
export interface ModelViews {
  /** Lessons of the main stores (swarm, link and hive files), any status, file order. */
  lessons: SourceEntry[];
  /** Every copy of an id (any store), file order. */
  byId: LayeredLookup<SourceEntry[]>;
  eventsById: Map<string, EventRef[]>;
  /** Lessons with directive fields (file order) and their rows, index for index. */
  directiveSources: SourceEntry[];
  directives: DirectiveRow[];
  groups: { group: 'project' | 'hive'; entries: SourceEntry[] }[];
  /** The lessons behind `sources.swarm` / `sources.hive`, index for index. */
  sourceEntries: { swarm: SourceEntry[]; hive: SourceEntry[] };
  sources: { swarm: RawEntry[]; hive: RawEntry[]; retractions: RawEntry[] };
  /** The triage inboxes' entries (rejected and unactionable collections), file order. */
  triage: { rejected: SourceEntry[]; unactionable: SourceEntry[] };
}

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
    lessons = list;
  }
  let byId = adopted.byId;
  if (!byId) {
    const fresh = new Map<string, SourceEntry[]>();
    yield* each(inputs.entries, (entry) => {
      const key = entryId(entry.value);
      const list = fresh.get(key);
      if (list) list.push(entry);
      else fresh.set(key, [entry]);
    });
    byId = LayeredLookup.of(fresh);
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
    [directives, directiveSources] = [rows, sourcesOfRows];
  }
  let groups = adopted.groups;
  if (!groups) {
    const split: SourceEntry[][] = [[], []];
    yield* each(lessons, (e) => isActiveStatus(entryStatus(e.value)) && split[tierGroupOf(e)]!.push(e));
    groups = [
      { group: 'project', entries: split[0]! },
      { group: 'hive', entries: split[1]! },
    ];
  }
  const eventsById = adopted.eventsById ?? eventIndex(inputs);
  let { sources, sourceEntries } = adopted;
  if (!sources || !sourceEntries) {
    const split: SourceEntry[][] = [[], []];
    yield* each(lessons, (e) => split[tierGroupOf(e)]!.push(e));
    sourceEntries = { swarm: split[0]!, hive: split[1]! };
    sources = { swarm: split[0]!.map((e) => e.value), hive: split[1]!.map((e) => e.value), retractions: inputs.retractions };
  }
  let triage = adopted.triage;
  if (!triage) {
    const found: { rejected: SourceEntry[]; unactionable: SourceEntry[] } = { rejected: [], unactionable: [] };
    yield* each(inputs.entries, (e) => (e.collection === 'rejected' || e.collection === 'unactionable') && found[e.collection].push(e));
    triage = found;
  }
  return { lessons, byId, eventsById, directiveSources, directives, groups, sourceEntries, sources, triage };
}

/**
 * `list` (in file order) with `added` (in file order) put in their places; `values` (index for
 * index with `list`) gets `valueOf` of each at the same place. Few additions are spliced in by
 * binary search; many are merged in one pass.
 */
export function insertInOrder<T>(
  list: readonly SourceEntry[],
  values: readonly T[],
  added: readonly SourceEntry[],
  compare: EntryOrder,
  valueOf: (entry: SourceEntry) => T,
): { list: SourceEntry[]; values: T[] } {
  if (added.length === 0) return { list: list as SourceEntry[], values: values as T[] };
  const outList = list.slice();
  const outValues = values.slice();
  for (const entry of added) {
    let low = 0;
    let high = outList.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (compare(outList[mid]!, entry) <= 0) low = mid + 1;
      else high = mid;
    }
    outList.splice(low, 0, entry);
    outValues.splice(low, 0, valueOf(entry));
  }
  return { list: outList, values: outValues };
}

const same = (e: SourceEntry) => e;

/**
 * The previous views grown by appended entries (`added`, any order), in work proportional to
 * them: each view gets only the appended entries that belong in it, at their place in file order.
 * Events are taken over when they are the same inputs, else re-indexed (FIFO-capped: small).
 */
export function growViews(
  previous: ModelViews,
  previousInputs: KnowledgeInputs,
  inputs: KnowledgeInputs,
  added: readonly SourceEntry[],
  compare: EntryOrder,
  rowOf: (source: SourceEntry) => DirectiveRow,
  /** False when counters or thresholds changed too: every row is then computed again. */
  rowsValid: boolean,
): ModelViews {
  const appended = [...added].sort(compare);
  const lessonsAdded = appended.filter((e) => e.collection === 'active');
  const lessons = insertInOrder(previous.lessons, previous.lessons, lessonsAdded, compare, same).list;

  const changedIds = new Map<string, SourceEntry[]>();
  for (const entry of appended) {
    const id = entryId(entry.value);
    const copies = changedIds.get(id) ?? previous.byId.get(id) ?? [];
    changedIds.set(id, insertInOrder(copies, copies, [entry], compare, same).list);
  }
  const byId = previous.byId.with(changedIds);

  const directiveAdded = lessonsAdded.filter((e) => isDirective(e.value));
  const directives = insertInOrder(previous.directiveSources, rowsValid ? previous.directives : previous.directiveSources.map(rowOf), directiveAdded, compare, rowOf);

  const activeAdded = lessonsAdded.filter((e) => isActiveStatus(entryStatus(e.value)));
  const groups = previous.groups.map(({ group, entries }) => ({
    group,
    entries: insertInOrder(entries, entries, activeAdded.filter((e) => (group === 'hive') === (e.tier === 'hive')), compare, same).list,
  }));

  const swarm = insertInOrder(previous.sourceEntries.swarm, previous.sources.swarm, lessonsAdded.filter((e) => e.tier !== 'hive'), compare, (e) => e.value);
  const hive = insertInOrder(previous.sourceEntries.hive, previous.sources.hive, lessonsAdded.filter((e) => e.tier === 'hive'), compare, (e) => e.value);

  const triage = {
    rejected: insertInOrder(previous.triage.rejected, previous.triage.rejected, appended.filter((e) => e.collection === 'rejected'), compare, same).list,
    unactionable: insertInOrder(previous.triage.unactionable, previous.triage.unactionable, appended.filter((e) => e.collection === 'unactionable'), compare, same).list,
  };

  const eventsSame = previousInputs.knowledgeEvents === inputs.knowledgeEvents && previousInputs.applicationLog === inputs.applicationLog;
  return {
    lessons,
    byId,
    eventsById: eventsSame ? previous.eventsById : eventIndex(inputs),
    directiveSources: directives.list,
    directives: directives.values,
    groups,
    sourceEntries: { swarm: swarm.list, hive: hive.list },
    sources: { swarm: swarm.values, hive: hive.values, retractions: inputs.retractions },
    triage,
  };
}

/** Where `entry` sits in `list` (file order), or -1. */
function indexInOrder(list: readonly SourceEntry[], entry: SourceEntry, compare: EntryOrder): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (compare(list[mid]!, entry) < 0) low = mid + 1;
    else high = mid;
  }
  for (let i = low; i < list.length && compare(list[i]!, entry) === 0; i++) if (list[i] === entry) return i;
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
): { directives: DirectiveRow[]; replaced: [DirectiveRow, DirectiveRow][] } {
  const positions = new Set<number>();
  for (const id of changes.ids) {
    for (const copy of views.byId.get(id) ?? []) {
      if (copy.collection !== 'active' || !isDirective(copy.value)) continue;
      const at = indexInOrder(views.directiveSources, copy, compare);
      if (at >= 0) positions.add(at);
    }
  }
  if (changes.asOfMoved) views.directives.forEach((row, i) => row.lastViolationAt !== null && positions.add(i));
  const directives = views.directives.slice();
  const replaced: [DirectiveRow, DirectiveRow][] = [];
  for (const at of [...positions].sort((a, b) => a - b)) {
    const next = rowOf(views.directiveSources[at]!);
    replaced.push([directives[at]!, next]);
    directives[at] = next;
  }
  return { directives, replaced };
}
