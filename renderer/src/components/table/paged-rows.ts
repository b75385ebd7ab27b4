import { batch, createSignal, untrack, type Accessor } from 'solid-js';

/**
 * A sparse, block-cached window over a server-side paged list. Only the blocks the viewport
 * needs are fetched, so a table over 100,000 rows holds a few hundred in memory. A new query
 * key (filters, sort) starts over; `refresh()` refetches the loaded blocks in place, which is
 * what live updates use so the rows do not blank out.
 */
export interface PageResult<Row> {
  rows: Row[];
  total: number;
}

export type FetchPage<Row> = (offset: number, limit: number) => Promise<PageResult<Row>>;

export interface PagedRows<Row> {
  total: Accessor<number>;
  /** The row at `index`, or undefined while its block loads. Reactive per block. */
  rowAt(index: number): Row | undefined;
  /** Loads whatever blocks cover [start, end). */
  ensureRange(start: number, end: number): void;
  /** Starts over with a new fetcher (new filters or sort). */
  reset(fetch: FetchPage<Row>): void;
  /** Refetches the loaded blocks; resolves with the rows as they were before and after, per index. */
  refresh(): Promise<{ before: Map<number, Row>; after: Map<number, Row> }>;
  loading: Accessor<boolean>;
  error: Accessor<string | undefined>;
  /** The last failed request's error (a new object per failure), until a block loads again. */
  failure: Accessor<unknown>;
  /** Asks again for the blocks the viewport wants that have not loaded (after a failure). */
  retry(): void;
}

/** Blocks fetched at once; further wanted blocks wait, and are dropped if scrolled past meanwhile. */
const MAX_IN_FLIGHT = 2;

interface PagedRowsOptions {
  /**
   * After the viewport jumps (a fling, a scrollbar drag), fetch only once it
   * has stayed put this long: blocks requested mid-fling arrive after the viewport has left them,
   * and each request and its answer cost the frames they land in. 0 fetches at once.
   */
  settleMs?: number;
}

export function createPagedRows<Row>(initial: FetchPage<Row>, blockSize = 200, options: PagedRowsOptions = {}): PagedRows<Row> {
  const settleMs = options.settleMs ?? 80;
  let fetchPage = initial;
  let generation = 0;
  let wanted = { first: 0, last: 0 };
  let settleTimer: ReturnType<typeof setTimeout> | undefined;
  let lastStart = 0;
  const queue: number[] = [];
  const blocks = new Map<number, Accessor<Row[] | undefined>>();
  const setters = new Map<number, (rows: Row[]) => void>();
  const inflight = new Set<number>();
  const [total, setTotal] = createSignal(0);
  const [loading, setLoading] = createSignal(false);
  const [failure, setFailure] = createSignal<unknown>();
  const error = () => {
    const current = failure();
    return current === undefined ? undefined : (current as Error).message;
  };
  const [version, setVersion] = createSignal(0);

  const slot = (block: number) => {
    let rows = blocks.get(block);
    if (!rows) {
      const [get, set] = createSignal<Row[] | undefined>(undefined, { equals: false });
      blocks.set(block, (rows = get));
      setters.set(block, (next) => set(next));
    }
    return rows;
  };

  const pump = () => {
    while (inflight.size < MAX_IN_FLIGHT && queue.length) {
      const block = queue.shift()!;
      // A block the viewport has already left is not worth a request.
      if (block < wanted.first - 1 || block > wanted.last + 1 || untrack(slot(block)) !== undefined) continue;
      void load(block, generation);
    }
  };

  const load = async (block: number, gen: number) => {
    if (inflight.has(block)) return;
    inflight.add(block);
    setLoading(true);
    try {
      const page = await fetchPage(block * blockSize, blockSize);
      if (gen !== generation) return;
      batch(() => {
        slot(block);
        setters.get(block)!(page.rows);
        setTotal(page.total);
        setFailure(undefined);
      });
    } catch (e) {
      if (gen === generation) setFailure(() => e);
    } finally {
      inflight.delete(block);
      if (inflight.size === 0 && queue.length === 0) setLoading(false);
      if (gen === generation && settleTimer === undefined) pump();
    }
  };

  const ensureRange = (start: number, end: number) => {
    const first = Math.max(0, Math.floor(start / blockSize));
    const last = Math.max(first, Math.floor(Math.max(start, end - 1) / blockSize));
    // Half a block or more since the last call is a jump, not reading: 3–4 rows a frame is a
    // brisk wheel, a fling or a scrollbar drag moves a hundred rows and more.
    const jumped = Math.abs(start - lastStart) >= blockSize / 2;
    lastStart = start;
    wanted = { first, last };
    for (let block = first; block <= last; block++) {
      if (!untrack(slot(block)) && !inflight.has(block) && !queue.includes(block)) queue.push(block);
    }
    // Nearest to the viewport first.
    queue.sort((a, b) => Math.abs(a - first) - Math.abs(b - first));
    if (queue.length) setLoading(true);
    if (jumped && settleMs > 0) {
      clearTimeout(settleTimer);
      settleTimer = setTimeout(() => {
        settleTimer = undefined;
        pump();
      }, settleMs);
    } else if (settleTimer === undefined) pump();
  };

  return {
    total,
    loading,
    error,
    failure,
    retry() {
      ensureRange(wanted.first * blockSize, (wanted.last + 1) * blockSize);
    },
    rowAt(index) {
      version();
      const rows = slot(Math.floor(index / blockSize))();
      return rows?.[index % blockSize];
    },
    ensureRange,
    reset(next) {
      fetchPage = next;
      generation++;
      clearTimeout(settleTimer);
      settleTimer = undefined;
      inflight.clear();
      queue.length = 0;
      blocks.clear();
      setters.clear();
      setVersion((v) => v + 1);
      void load(0, generation);
    },
    async refresh() {
      const gen = generation;
      const loaded = [...blocks.entries()].filter(([, rows]) => rows() !== undefined).map(([block]) => block);
      if (loaded.length === 0) loaded.push(0);
      const before = new Map<number, Row>();
      const after = new Map<number, Row>();
      for (const block of loaded) blocks.get(block)?.()?.forEach((row, i) => before.set(block * blockSize + i, row));
      const pages = await Promise.all(loaded.map((block) => fetchPage(block * blockSize, blockSize).then((page) => ({ block, page }))));
      if (gen !== generation) return { before, after };
      batch(() => {
        for (const { block, page } of pages) {
          slot(block);
          setters.get(block)!(page.rows);
          page.rows.forEach((row, i) => after.set(block * blockSize + i, row));
          setTotal(page.total);
        }
        setFailure(undefined);
      });
      return { before, after };
    },
  };
}
