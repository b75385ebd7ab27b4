import type { z } from 'zod';
import type { DirectiveRow, DirectivesQuery } from '../../../shared/contract/knowledge';
import type { DerivedStore } from '../store-index/derived-store';
import type { TimeSlicer } from '../platform/util/time-slicer';
import { sourceOfRow } from './directive-rows';
import { decodeDirectiveRow, encodeDirectiveRow } from './directive-row-codec';
import { directivesPage, isFiltered, listDirectives, sortedDirectives, type DirectiveSource } from './directive-list';
import type { DirectiveCounts } from './directive-scope';

type Query = z.output<typeof DirectivesQuery>;

/**
 * The Directives view's rows kept in the index: every directive row (one stored part each, packed
 * without its keys by directive-row-codec.ts, the
 * part numbered by its lesson's rid, so a row is written again only when it changed), the rids in
 * file order and, per scope and sort order, the rids in that order with the quick-filter counts.
 * A page of an unfiltered query then reads its own rows only; a filtered one reads every row and
 * runs the model's listDirectives over them. Both give what the model gives.
 */

const ROWS = 'directive-rows';
const ORDERS = 'directive-orders';
const SORT_ORDERS: Query['sort'][] = ['priority', 'expiry', 'violations', 'signal', 'updated', 'shown'];
const SCOPES = [false, true];
/** Rows written per transaction (a few ms each). */
const ROWS_PER_WRITE = 250;

/** Part 0 of the orders holds every row's rid in file order; then one part per scope and sort. */
const FILE_ORDER = 0;
const orderPart = (includeInactive: boolean, sort: Query['sort']) => 1 + SCOPES.indexOf(includeInactive) * SORT_ORDERS.length + SORT_ORDERS.indexOf(sort);

interface StoredOrder {
  /** Rids of the rows in scope, in the sort order. */
  order: number[];
  counts: DirectiveCounts;
}

/** A Directives source over stored rows (what listDirectives reads of a model). */
class StoredDirectives implements DirectiveSource {
  private readonly memo = new Map<string, unknown>();
  constructor(
    private readonly rows: DirectiveRow[],
    readonly asOf: number,
  ) {}
  directiveRows(): DirectiveRow[] {
    return this.rows;
  }
  cached<T>(key: string, compute: () => T): T {
    if (!this.memo.has(key)) this.memo.set(key, compute());
    return this.memo.get(key) as T;
  }
}

export class PersistedDirectives {
  /** The row stored under each rid by this process (empty: what is stored is unknown). */
  private readonly stored = new Map<number, DirectiveRow>();
  private all: { stamp: string; source: StoredDirectives } | null = null;

  constructor(private readonly store: DerivedStore) {}

  /** Stores the model's rows and orders under `stamp` (orders come from the model's memo: requests reuse them). */
  async save(model: DirectiveSource, stamp: string, slicer: TimeSlicer): Promise<void> {
    if (this.store.storedStamp(ROWS) === stamp && this.store.storedStamp(ORDERS) === stamp) return;
    this.store.invalidate(ORDERS);
    this.store.invalidate(ROWS);
    if (this.stored.size === 0) this.store.dropParts(ROWS);
    const rows = model.directiveRows();
    const ridOf = new Map<DirectiveRow, number>();
    for (const row of rows) ridOf.set(row, sourceOfRow(row)!.rid);
    const live = new Set(ridOf.values());
    const gone = [...this.stored.keys()].filter((rid) => !live.has(rid));
    this.store.dropParts(ROWS, gone);
    for (const rid of gone) this.stored.delete(rid);
    for (let from = 0; from < rows.length; from += ROWS_PER_WRITE) {
      // Rows are reused while their lesson and counters stay, so the same row is the same text.
      const changed = rows.slice(from, from + ROWS_PER_WRITE).filter((row) => this.stored.get(ridOf.get(row)!) !== row);
      if (changed.length === 0) continue;
      this.store.writePartsAt(ROWS, changed.map((row) => [ridOf.get(row)!, encodeDirectiveRow(row)] as const));
      for (const row of changed) this.stored.set(ridOf.get(row)!, row);
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
    this.store.writeParts(ORDERS, 0, orders);
    this.store.finishValue(ORDERS, stamp, orders.length);
  }

  /** A Directives answer from the rows stored at `stamp`, or null when none are. */
  page(query: Query, stamp: string, asOf: number): ReturnType<typeof listDirectives> | null {
    if (isFiltered(query)) {
      const source = this.source(stamp, asOf);
      return source ? listDirectives(source, query) : null;
    }
    const [orderText] = this.store.readParts(ORDERS, stamp, [orderPart(query.includeInactive, query.sort)]) ?? [];
    if (orderText === undefined) return null;
    const { order, counts } = JSON.parse(orderText) as StoredOrder;
    const texts = this.store.readParts(ROWS, stamp, order.slice(query.offset, query.offset + query.limit));
    if (!texts) return null;
    return directivesPage(order.length, texts.map(decodeDirectiveRow), counts, asOf);
  }

  /** Every stored row in file order, as a source listDirectives can filter (read once per stamp). */
  private source(stamp: string, asOf: number): StoredDirectives | null {
    if (this.all?.stamp === stamp && this.store.storedStamp(ROWS) === stamp) return this.all.source;
    const [fileOrder] = this.store.readParts(ORDERS, stamp, [FILE_ORDER]) ?? [];
    const texts = fileOrder === undefined ? null : this.store.readParts(ROWS, stamp, JSON.parse(fileOrder) as number[]);
    if (!texts) return null;
    this.all = { stamp, source: new StoredDirectives(texts.map(decodeDirectiveRow), asOf) };
    return this.all.source;
  }
}
