import path from 'node:path';
import type { z } from 'zod';
import type { ReceiptsEvent } from '../../../shared/contract/receipts';
import { StoreWatcher, type WatchTarget } from '../platform/watch/store-watcher';
import { GateAppendFilter } from './gate-append-filter';
import { loadReceipts, type LoadOptions, type ReceiptPaths } from './load-receipts';
import { LEGACY_FILES, V2_FILES } from '../rules/receipt-format';
import type { ReceiptsModel } from './receipts-model';

type ReceiptsEventValue = z.infer<typeof ReceiptsEvent>;

/** Files in `.swarm/` whose change means a new verification (events.jsonl carries gate lines). */
const SWARM_FILES: readonly string[] = [...Object.values(V2_FILES), LEGACY_FILES.unacknowledged, 'events.jsonl'];
/** Files in the (link-aware) knowledge dir. */
const KNOWLEDGE_FILES: readonly string[] = [LEGACY_FILES.events, LEGACY_FILES.application];

/**
 * The receipts of one open workspace: verified and modelled on first use, verified again on
 * every explicit load and whenever a receipt file changes (chokidar, debounced), with listeners
 * told after each re-verification. Never writes anything it watches.
 */
export class ReceiptsService {
  private current: Promise<ReceiptsModel> | null = null;
  private verifiedAt = 0;
  private verifying = false;
  private readonly listeners = new Set<(event: ReceiptsEventValue) => void>();
  private readonly watcher: StoreWatcher;
  private readonly changed = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  readonly watching: Promise<void>;
  /** Appends to events.jsonl without a gate line do not re-verify (see gate-append-filter.ts). */
  readonly eventsLog: GateAppendFilter;

  constructor(
    private readonly paths: ReceiptPaths,
    private readonly options: LoadOptions & { debounceMs?: number } = {},
  ) {
    const sameDir = path.resolve(paths.swarmDir) === path.resolve(paths.knowledgeDir);
    const targets: WatchTarget[] = sameDir
      ? [{ dir: paths.swarmDir, depth: 0, relevant: (rel) => SWARM_FILES.includes(rel) || KNOWLEDGE_FILES.includes(rel) }]
      : [
          { dir: paths.swarmDir, depth: 0, relevant: (rel) => SWARM_FILES.includes(rel) },
          { dir: paths.knowledgeDir, depth: 0, relevant: (rel) => KNOWLEDGE_FILES.includes(rel) },
        ];
    this.eventsLog = new GateAppendFilter(path.join(paths.swarmDir, 'events.jsonl'));
    this.watcher = new StoreWatcher(targets, (event) => {
      const name = path.basename(event.path);
      if (event.kind === 'file' && event.path === path.join(paths.swarmDir, 'events.jsonl')) {
        void this.eventsLog.mayMatter().then((matters) => matters && this.noteChange(name));
        return;
      }
      // A folder event (a receipt folder came back, or changed access) may change any file.
      this.noteChange(name);
    });
    this.watching = this.watcher.ready;
  }

  /** The model as of the last verification (verifying now if there is none yet). */
  model(): Promise<ReceiptsModel> {
    return this.current ?? this.refresh();
  }

  /** Verifies every receipt file again and rebuilds the model; concurrent callers share it. */
  refresh(): Promise<ReceiptsModel> {
    const eventsMark = this.eventsLog.mark();
    const next = loadReceipts(this.paths, this.options);
    next.then(() => this.eventsLog.adopt(eventsMark), () => undefined);
    this.current = next;
    this.verifying = true;
    next.then(
      () => {
        if (this.current !== next) return;
        this.verifying = false;
        this.verifiedAt = Date.now();
      },
      () => {
        if (this.current !== next) return;
        this.verifying = false;
        this.current = null;
      },
    );
    return next;
  }

  /**
   * A verification younger than `maxAgeMs` (or in progress), else a new one (0 always verifies again,
   * even within the millisecond of the last one). A view that reloads
   * right after a change event then reuses the verification the event reported.
   */
  recent(maxAgeMs: number): Promise<ReceiptsModel> {
    if (this.current && (this.verifying || Date.now() - this.verifiedAt < maxAgeMs)) return this.current;
    return this.refresh();
  }

  onChange(listener: (event: ReceiptsEventValue) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private noteChange(name: string): void {
    if (this.closed) return;
    this.changed.add(name);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.reverify(), this.options.debounceMs ?? 150);
  }

  private async reverify(): Promise<void> {
    this.timer = null;
    const changed = [...this.changed].sort();
    this.changed.clear();
    try {
      const model = await this.refresh();
      if (this.closed) return;
      for (const listener of this.listeners) listener({ kind: 'reverified', changed, integrity: model.integrity });
    } catch (error) {
      console.warn('[receipts] re-verification failed:', (error as Error).message);
    }
  }

  async dispose(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.listeners.clear();
    await this.watcher.close();
  }
}
