import type { z } from 'zod';
import { DirectiveRow, type DirectivesQuery } from '../../../shared/contract/knowledge';
import type { DerivedStore } from '../store-index/derived-store';
import type { TimeSlicer } from '../platform/util/time-slicer';
import { sourceOfRow } from './directive-rows';
import { decodeDirectiveRow, encodeDirectiveRow } from './directive-row-codec';
import { directivesPage, isFiltered, listDirectives, passesQuickFilters, sortedDirectives, type DirectiveFacts, type DirectiveSource } from './directive-list';
import type { DirectiveCounts } from './directive-scope';

type Query = z.output<typeof DirectivesQuery>;

/**
 * The Directives view's rows kept in the index: every directive row (one stored part each, packed
 * without its keys by directive-row-codec.ts, the
 * part numbered by its lesson's rid, so a row is written again only when it changed), the rids in
 * file order and, per scope and sort order, the rids in that order with the quick-filter counts.
 * and what the quick filters read of each row (DirectiveFacts, a few numbers a row). A page of an
 * unfiltered or quick-filtered query then reads its own rows only; one that searches text reads
 * every row and runs the model's listDirectives over them. All give what the model gives.
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
/** After the orders: every row's DirectiveFacts in file order, FACT_WIDTH numbers a row (encodeFacts). */
const FACTS = 1 + SCOPES.length * SORT_ORDERS.length;

const PRIORITIES = DirectiveRow.shape.priority.options;
const TIERS = DirectiveRow.shape.tier.options;
const FACT_WIDTH = 5;

/** Rows' quick-filter facts as one flat array: priority and tier by their place in the contract's enums, phases left (null: no expiry), violations in the window, eligible (1/0). */
function encodeFacts(rows: readonly DirectiveRow[]): (number | null)[] {
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
    // An index kept before the facts part existed is written again once (its orders lack it).
    if (this.store.storedStamp(ROWS) === stamp && this.store.readParts(ORDERS, stamp, [FACTS]) !== null) return;
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
    orders[FACTS] = JSON.stringify(encodeFacts(rows));
    this.store.writeParts(ORDERS, 0, orders);
    this.store.finishValue(ORDERS, stamp, orders.length);
  }

  /** A Directives answer from the rows stored at `stamp`, or null when none are. */
  page(query: Query, stamp: string, asOf: number): ReturnType<typeof listDirectives> | null {
    if (query.q.trim() !== '') {
      const source = this.source(stamp, asOf);
      return source ? listDirectives(source, query) : null;
    }
    const scoped = orderPart(query.includeInactive, query.sort);
    const parts = this.store.readParts(ORDERS, stamp, isFiltered(query) ? [scoped, FILE_ORDER, FACTS] : [scoped]);
    if (!parts) return null;
    const { order, counts } = JSON.parse(parts[0]!) as StoredOrder;
    const matches = parts.length === 1 ? order : this.quickFiltered(order, JSON.parse(parts[1]!) as number[], JSON.parse(parts[2]!) as (number | null)[], query);
    const texts = this.store.readParts(ROWS, stamp, matches.slice(query.offset, query.offset + query.limit));
    if (!texts) return null;
    return directivesPage(matches.length, texts.map(decodeDirectiveRow), counts, asOf);
  }

  /** The rids of `order` whose facts pass the query's quick filters, in that order (listDirectives' filter, on the kept facts). */
  private quickFiltered(order: readonly number[], fileOrder: readonly number[], facts: readonly (number | null)[], query: Query): number[] {
    const at = new Map(fileOrder.map((rid, i) => [rid, i]));
    return order.filter((rid) => passesQuickFilters(decodeFacts(facts, at.get(rid)!), query));
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
