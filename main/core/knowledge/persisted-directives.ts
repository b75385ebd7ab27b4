import type { z } from 'zod';
import { DirectiveRow, type DirectivesQuery } from '../../../shared/contract/knowledge';
import { packedParts, type DerivedStore } from '../store-index/derived-store';
import type { TimeSlicer } from '../platform/util/time-slicer';
import { sourceOfRow } from './directive-rows';
import { decodeDirectiveRow, encodeDirectiveRow } from './directive-row-codec';
import { keptRowHolds } from './kept-row-search';
import { directivesPage, isFiltered, matchesText, passesQuickFilters, sortedDirectives, type DirectiveFacts, type DirectiveSource, type listDirectives } from './directive-list';
import type { DirectiveCounts } from './directive-scope';
import type { ReadList } from './chunked-list';

type Query = z.output<typeof DirectivesQuery>;

/**
 * The Directives view's rows kept in the index: every directive row (packed without its keys by
 * directive-row-codec.ts), kept in blocks of consecutive rids (a block is one stored part, so a
 * block is written again only when one of its rows changed or left, and the store deflates it:
 * rows of neighbouring lessons share most of their phrases), the rids in file order and, per scope
 * and sort order, the rids in that order with the quick-filter counts, and what the quick filters
 * read of each row (DirectiveFacts, a few numbers a row). A page of an unfiltered or
 * quick-filtered query then reads the blocks of its own rows only; one that searches text reads
 * the stored text of every row in scope and decodes only those that hold the search text. All
 * give what the model's listDirectives gives.
 */

const ROWS = 'directive-row-blocks';
/** Where an older version kept one row per part: dropped when the blocks are first written. */
const ROWS_ONE_PER_PART = 'directive-rows';
/**
 * A block holds the rows of 64 consecutive rids in rid order, a line each: the rid, a tab, the
 * row's text (JSON, which writes no tab or line break raw). Splitting the lines of 90,000 lessons'
 * blocks takes 15 ms; JSON.parse of the same rows as arrays of strings (every quote escaped) took 65.
 */
const RIDS_PER_BLOCK = 64;
const blockOf = (rid: number) => Math.floor(rid / RIDS_PER_BLOCK);
/** Blocks written per transaction (a few ms each). */
const BLOCKS_PER_WRITE = 8;
const ORDERS = 'directive-orders';
const SORT_ORDERS: Query['sort'][] = ['priority', 'expiry', 'violations', 'signal', 'updated', 'shown'];
const SCOPES = [false, true];

/** Part 0 of the orders holds every row's rid in file order; then one part per scope and sort. */
const FILE_ORDER = 0;
const orderPart = (includeInactive: boolean, sort: Query['sort']) => 1 + SCOPES.indexOf(includeInactive) * SORT_ORDERS.length + SORT_ORDERS.indexOf(sort);
/** After the orders: every row's DirectiveFacts in file order, FACT_WIDTH numbers a row (encodeFacts). */
const FACTS = 1 + SCOPES.length * SORT_ORDERS.length;

const PRIORITIES = DirectiveRow.shape.priority.options;
const TIERS = DirectiveRow.shape.tier.options;
const FACT_WIDTH = 5;

/** Rows' quick-filter facts as one flat array: priority and tier by their place in the contract's enums, phases left (null: no expiry), violations in the window, eligible (1/0). */
function encodeFacts(rows: ReadList<DirectiveRow>): (number | null)[] {
  const flat: (number | null)[] = [];
  for (const row of rows) flat.push(PRIORITIES.indexOf(row.priority), TIERS.indexOf(row.tier), row.expiry ? row.expiry.phasesLeft : null, row.violationsInWindow, row.maturity.eligible ? 1 : 0);
  return flat;
}

function decodeFacts(flat: readonly (number | null)[], at: number): DirectiveFacts {
  const base = at * FACT_WIDTH;
  const phasesLeft = flat[base + 2]!;
  return {
    priority: PRIORITIES[flat[base]!]!,
    tier: TIERS[flat[base + 1]!]!,
    expiry: phasesLeft === null ? null : { phasesLeft },
    violationsInWindow: flat[base + 3]!,
    maturity: { eligible: flat[base + 4] === 1 },
  };
}

/** What text searches read of the kept rows: their texts, lower-cased, and their quick-filter facts (at each rid's place in file order). */
interface SearchableRows {
  stamp: string;
  texts: Map<number, string>;
  at: Map<number, number>;
  /** Null in an index kept before the facts were. */
  facts: (number | null)[] | null;
}

interface StoredOrder {
  /** Rids of the rows in scope, in the sort order. */
  order: number[];
  counts: DirectiveCounts;
}

export class PersistedDirectives {
  /** The row stored under each rid by this process (empty: what is stored is unknown). */
  private readonly stored = new Map<number, DirectiveRow>();
  /** The stored text of every row, lower-cased, for text searches (read once per stamp). */
  private searchable: SearchableRows | null = null;

  constructor(private readonly store: DerivedStore) {}

  /** Stores the model's rows and orders under `stamp` (orders come from the model's memo: requests reuse them). */
  async save(model: DirectiveSource, stamp: string, slicer: TimeSlicer): Promise<void> {
    // A model that keeps its rows answers searches itself from now on: the texts read for them can go.
    this.searchable = null;
    // An index kept before the facts part existed is written again once (its orders lack it).
    if (this.store.storedStamp(ROWS) === stamp && this.store.readParts(ORDERS, stamp, [FACTS]) !== null) return;
    this.store.invalidate(ORDERS);
    this.store.invalidate(ROWS);
    if (this.stored.size === 0) {
      this.store.dropParts(ROWS);
      this.store.invalidate(ROWS_ONE_PER_PART);
      this.store.dropParts(ROWS_ONE_PER_PART);
    }
    const rows = model.directiveRows();
    const ridOf = new Map<DirectiveRow, number>();
    const blocks = new Map<number, DirectiveRow[]>();
    for (const row of rows) {
      const rid = sourceOfRow(row)!.rid;
      ridOf.set(row, rid);
      const block = blocks.get(blockOf(rid));
      if (block) block.push(row);
      else blocks.set(blockOf(rid), [row]);
    }
    // A block is written again when a row of it left or changed (rows are reused while their lesson and counters stay).
    const live = new Set(ridOf.values());
    const gone = [...this.stored.keys()].filter((rid) => !live.has(rid));
    const changed = new Set(gone.map(blockOf));
    for (const [row, rid] of ridOf) if (this.stored.get(rid) !== row) changed.add(blockOf(rid));
    for (const rid of gone) this.stored.delete(rid);
    this.store.dropParts(ROWS, [...changed].filter((block) => !blocks.has(block)));
    const toWrite = [...changed].filter((block) => blocks.has(block)).sort((a, b) => a - b);
    for (let from = 0; from < toWrite.length; from += BLOCKS_PER_WRITE) {
      const batch = toWrite.slice(from, from + BLOCKS_PER_WRITE).map((block) => [block, blocks.get(block)!.sort((a, b) => ridOf.get(a)! - ridOf.get(b)!)] as const);
      const packed = await packedParts(batch.map(([, members]) => members.map((row) => `${ridOf.get(row)!}\t${encodeDirectiveRow(row)}`).join('\n')));
      this.store.writePartsAt(ROWS, batch.map(([block], i) => [block, packed[i]!] as const));
      for (const [, members] of batch) for (const row of members) this.stored.set(ridOf.get(row)!, row);
      await slicer.yield();
    }
    this.store.finishValue(ROWS, stamp, null);

    const orders: string[] = [JSON.stringify(rows.map((row) => ridOf.get(row)!))];
    for (const includeInactive of SCOPES) {
      for (const sort of SORT_ORDERS) {
        const { sorted, counts } = sortedDirectives(model, includeInactive, sort);
        orders[orderPart(includeInactive, sort)] = JSON.stringify({ order: sorted.map((row) => ridOf.get(row)!), counts } satisfies StoredOrder);
        await slicer.yield();
      }
    }
    orders[FACTS] = JSON.stringify(encodeFacts(rows));
    this.store.writeParts(ORDERS, 0, await packedParts(orders));
    this.store.finishValue(ORDERS, stamp, orders.length);
  }

  /** A Directives answer from the rows stored at `stamp`, or null when none are. */
  page(query: Query, stamp: string, asOf: number): ReturnType<typeof listDirectives> | null {
    const text = query.q.trim().toLowerCase();
    if (text !== '') return this.searched(query, text, stamp, asOf);
    const scoped = orderPart(query.includeInactive, query.sort);
    const parts = this.store.readParts(ORDERS, stamp, isFiltered(query) ? [scoped, FILE_ORDER, FACTS] : [scoped]);
    if (!parts) return null;
    const { order, counts } = JSON.parse(parts[0]!) as StoredOrder;
    const matches = parts.length === 1 ? order : this.quickFiltered(order, JSON.parse(parts[1]!) as number[], JSON.parse(parts[2]!) as (number | null)[], query);
    const texts = this.rowTexts(stamp, matches.slice(query.offset, query.offset + query.limit));
    if (!texts) return null;
    return directivesPage(matches.length, texts.map(decodeDirectiveRow), counts, asOf);
  }

  /** The rids of `order` whose facts pass the query's quick filters, in that order (listDirectives' filter, on the kept facts). */
  private quickFiltered(order: readonly number[], fileOrder: readonly number[], facts: readonly (number | null)[], query: Query): number[] {
    const at = new Map(fileOrder.map((rid, i) => [rid, i]));
    return order.filter((rid) => passesQuickFilters(decodeFacts(facts, at.get(rid)!), query));
  }

  /**
   * A text search on the kept rows: the rows in scope in the sort order whose search text holds
   * `text` and which pass the quick filters (read from the kept facts). A row whose stored text,
   * lower-cased, lacks `text` as JSON writes it cannot match (where JSON writes `text` as is: no
   * quote, backslash or control character); one that has it is checked on its text where
   * kept-row-search.ts can tell, else decoded. Only the page's rows are read back as kept.
   */
  private searched(query: Query, text: string, stamp: string, asOf: number): ReturnType<typeof listDirectives> | null {
    const [orderText] = this.store.readParts(ORDERS, stamp, [orderPart(query.includeInactive, query.sort)]) ?? [];
    const kept = orderText === undefined ? null : this.searchableRows(stamp);
    if (orderText === undefined || !kept) return null;
    const { order, counts } = JSON.parse(orderText) as StoredOrder;
    const needle = JSON.stringify(text) === `"${text}"` ? text : null;
    const quick = isFiltered({ ...query, q: '' });
    const matches: number[] = [];
    for (const rid of order) {
      const lower = kept.texts.get(rid);
      const at = kept.at.get(rid);
      if (lower === undefined || at === undefined) return null;
      if (needle !== null && !lower.includes(needle)) continue;
      // Facts kept before they were: the row's own (its values are lower-case already).
      if (quick && !passesQuickFilters(kept.facts ? decodeFacts(kept.facts, at) : decodeDirectiveRow(lower), query)) continue;
      // The kept texts are lower-case already, and matchesText lower-cases what it reads.
      const held = needle === null ? null : keptRowHolds(lower, needle);
      if (held === false || (held === null && !matchesText(decodeDirectiveRow(lower), text))) continue;
      matches.push(rid);
    }
    const page = this.rowTexts(stamp, matches.slice(query.offset, query.offset + query.limit));
    if (!page) return null;
    return directivesPage(matches.length, page.map(decodeDirectiveRow), counts, asOf);
  }

  /**
   * Every stored row's text, lower-cased, by rid, with the rows' quick-filter facts (read once per
   * stamp). Each block is lower-cased whole and its rows are slices of it: lower-casing 27,755 rows
   * one by one made as many copies, and collecting them cost the first search about 100 ms. (A
   * block's line breaks and tabs stay where they are: JSON writes none raw inside a row, and
   * lower-casing makes none.)
   */
  private searchableRows(stamp: string): SearchableRows | null {
    if (this.searchable?.stamp === stamp && this.store.storedStamp(ROWS) === stamp) return this.searchable;
    const [fileOrder] = this.store.readParts(ORDERS, stamp, [FILE_ORDER]) ?? [];
    if (fileOrder === undefined) return null;
    const [facts] = this.store.readParts(ORDERS, stamp, [FACTS]) ?? [];
    const rids = JSON.parse(fileOrder) as number[];
    const blocks = this.store.readParts(ROWS, stamp, [...new Set(rids.map(blockOf))]);
    if (!blocks) return null;
    const texts = new Map<number, string>();
    for (const block of blocks) eachRow(block.toLowerCase(), (rid, text) => texts.set(rid, text));
    if (!rids.every((rid) => texts.has(rid))) return null;
    this.searchable = { stamp, texts, at: new Map(rids.map((rid, i) => [rid, i])), facts: facts === undefined ? null : (JSON.parse(facts) as (number | null)[]) };
    return this.searchable;
  }

  /** The stored texts of the rows `rids`, in that order, read from their blocks; null when one is not stored at `stamp`. */
  private rowTexts(stamp: string, rids: readonly number[]): string[] | null {
    const blocks = this.store.readParts(ROWS, stamp, [...new Set(rids.map(blockOf))]);
    if (!blocks) return null;
    const byRid = new Map<number, string>();
    for (const block of blocks) eachRow(block, (rid, text) => byRid.set(rid, text));
    const texts = rids.map((rid) => byRid.get(rid));
    return texts.every((text) => text !== undefined) ? (texts as string[]) : null;
  }
}

/** Each row of a block: a line of the rid, a tab and the row's text. */
function eachRow(block: string, row: (rid: number, text: string) => void): void {
  for (let start = 0; start < block.length; ) {
    const tab = block.indexOf('\t', start);
    const end = block.indexOf('\n', tab);
    const stop = end === -1 ? block.length : end;
    row(Number(block.slice(start, tab)), block.slice(tab + 1, stop));
    start = stop + 1;
  }
}
