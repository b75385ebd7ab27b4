import type { FeedItem, FollowUp, LiveEvent, RepeatAlert, RepeatRule } from '../../../shared/contract/live';
import { FeedStore } from './feed-store';

/**
 * The one ordered feed both sources write into. It keeps each thing once: a denial seen live and
 * again through catch-up has the same id; an events.jsonl deny that clearly describes a live denial
 * (same session and tool, within MERGE_WINDOW_MS, overlapping directives) is merged into it. The
 * latest items stay in a bounded ring; everything goes to SQLite. It also raises "repeat" alerts:
 * one directive blocking the same tool N times within the rule's window.
 */
const MERGE_WINDOW_MS = 10_000;
const DEFAULT_RULE: RepeatRule = { enabled: true, threshold: 3, windowMinutes: 10 };
const RULE_KEY = 'repeat_rule';

type FeedListener = (event: LiveEvent) => void;

const overlaps = (a: string[], b: string[]) => !a.length || !b.length || a.some((id) => b.includes(id));
const isDenial = (item: FeedItem) => item.kind === 'denial' || item.kind === 'block';

export class Feed {
  private readonly ring = new Map<string, FeedItem>();
  private readonly listeners = new Set<FeedListener>();
  private readonly lastAlert = new Map<string, number>();
  private currentRule: RepeatRule;
  /** The open workspace's project folder: repeat alerts are raised and counted only inside it. */
  private workspace: string | null = null;

  constructor(
    readonly store: FeedStore,
    private readonly ringSize = 1_000,
    private readonly now: () => number = Date.now,
  ) {
    this.currentRule = { ...DEFAULT_RULE, ...(store.getSetting<RepeatRule>(RULE_KEY) ?? {}) };
  }

  setWorkspace(project: string | null): void {
    this.workspace = project;
    this.lastAlert.clear();
  }

  get rule(): RepeatRule {
    return this.currentRule;
  }

  setRule(rule: RepeatRule): RepeatRule {
    this.currentRule = { ...rule };
    this.store.setSetting(RULE_KEY, this.currentRule);
    this.lastAlert.clear();
    return this.currentRule;
  }

  subscribe(listener: FeedListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: LiveEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        console.error('[live] a feed listener failed:', error);
      }
    }
  }

  /** The latest items, newest first (what a new view shows before it pages into SQLite). */
  recent(limit: number): FeedItem[] {
    return [...this.ring.values()].sort((a, b) => b.time - a.time || (a.id < b.id ? 1 : -1)).slice(0, limit);
  }

  /**
   * Adds one item unless it is already known. Returns whether anything changed. `quiet` skips the
   * repeat check (a file's history read at start-up is not something happening now).
   */
  add(item: FeedItem, quiet = false): boolean {
    if (this.store.known(item.id)) return false;
    if (item.kind === 'denial' && item.source === 'events' && item.sessionID && item.tool) {
      const live = this.store.liveDenialsNear(item.sessionID, item.tool, item.time, MERGE_WINDOW_MS).find((d) => overlaps(d.directiveIds, item.directiveIds));
      if (live) {
        const merged: FeedItem = { ...live, sources: ['opencode', 'events'], extra: { ...item.extra, ...live.extra } };
        this.store.update(merged, item.id);
        this.remember(merged);
        this.emit({ type: 'items', items: [merged] });
        return true;
      }
    }
    let absorbed: FeedItem | undefined;
    if (item.kind === 'denial' && item.source === 'opencode' && item.sessionID && item.tool) {
      absorbed = this.store.eventDenialsNear(item.sessionID, item.tool, item.time, MERGE_WINDOW_MS).find((d) => overlaps(d.directiveIds, item.directiveIds));
      if (absorbed) item = { ...item, sources: ['opencode', 'events'], extra: { ...absorbed.extra, ...item.extra } };
    }
    if (!this.store.insert(item)) return false;
    if (absorbed) {
      this.store.hide(absorbed.id, item.id);
      this.ring.delete(absorbed.id);
      this.emit({ type: 'removed', ids: [absorbed.id] });
    }
    this.remember(item);
    this.emit({ type: 'items', items: [item] });
    if (isDenial(item) && !quiet) this.checkRepeat(item);
    return true;
  }

  addMany(items: FeedItem[], quiet = false): number {
    let added = 0;
    const run = this.store.db.transaction(() => {
      for (const item of items) if (this.add(item, quiet)) added++;
    });
    run();
    return added;
  }

  /** A later action of the session changed what we know about a denial's aftermath. */
  updateFollowUp(itemId: string, followUp: FollowUp): void {
    const item = this.ring.get(itemId) ?? this.store.get(itemId);
    if (!item) return;
    const updated: FeedItem = { ...item, followUp };
    this.store.update(updated);
    this.remember(updated);
    this.emit({ type: 'items', items: [updated] });
  }

  private remember(item: FeedItem): void {
    this.ring.delete(item.id);
    this.ring.set(item.id, item);
    while (this.ring.size > this.ringSize) this.ring.delete(this.ring.keys().next().value as string);
  }

  private checkRepeat(item: FeedItem): void {
    const rule = this.currentRule;
    if (!rule.enabled || !item.tool) return;
    const workspace = this.workspace ?? undefined;
    if (workspace && !FeedStore.belongsTo(item, workspace)) return;
    const now = this.now();
    const windowMs = rule.windowMinutes * 60_000;
    if (item.time < now - windowMs) return;
    for (const directiveId of item.directiveIds) {
      const key = `${directiveId}\n${item.tool}`;
      const last = this.lastAlert.get(key);
      if (last !== undefined && now - last < windowMs) continue;
      const { count, sessionIDs } = this.store.countRepeats(directiveId, item.tool, now - windowMs, workspace);
      if (count < rule.threshold) continue;
      this.lastAlert.set(key, now);
      const alert: RepeatAlert = { directiveId, tool: item.tool, count, windowMinutes: rule.windowMinutes, itemId: item.id, sessionIDs, time: now };
      this.emit({ type: 'repeat', alert });
    }
  }
}
