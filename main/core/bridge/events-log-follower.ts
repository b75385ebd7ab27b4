import fs from 'node:fs';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { FeedItem } from '../../../shared/contract/live';
import { readJsonl } from '../stores/jsonl-reader';
import { parseGateEvent } from './events-log';

/**
 * Follows `<project>/.swarm/events.jsonl` read-only: reads it whole once, then only the bytes
 * appended since (by offset). A file that shrank or was replaced is read again from the start;
 * items are keyed by a hash of their line, so re-reading adds nothing twice. The project folder
 * is watched (depth 1) because chokidar cannot wait for a file whose folder does not exist yet.
 */
const POLL_MS = 1_000;

interface EventsLogStatus {
  file: string;
  exists: boolean;
  records: number;
  gateEvents: number;
  defects: number;
  lastProblem: string | null;
}

export class EventsLogFollower {
  readonly file: string;
  private offset = 0;
  private nextLine = 1;
  private ino: number | null = null;
  private initialDone = false;
  private poll: NodeJS.Timeout | null = null;
  /** ino:size:mtime of the file at the last read, for the safety poll. */
  private lastSeen = '';
  private watcher: FSWatcher | null = null;
  private reading: Promise<void> | null = null;
  private again = false;
  private closed = false;
  readonly status: EventsLogStatus;

  constructor(
    readonly projectDir: string,
    private readonly onItems: (items: FeedItem[], initial: boolean) => void,
  ) {
    this.file = path.join(projectDir, '.swarm', 'events.jsonl');
    this.status = { file: this.file, exists: false, records: 0, gateEvents: 0, defects: 0, lastProblem: null };
  }

  /** Reads what is there now; with `follow`, keeps reading appends until `close()`. */
  async start(follow: boolean): Promise<void> {
    await this.refresh();
    this.initialDone = true;
    if (!follow || this.closed) return;
    const swarmDir = path.dirname(this.file);
    const wanted = new Set([this.projectDir, swarmDir, this.file]);
    this.watcher = watch(this.projectDir, { depth: 1, ignoreInitial: true, ignored: (p) => !wanted.has(p) });
    this.watcher.on('all', (_event, changed) => {
      if (changed === this.file || changed === swarmDir) void this.refresh();
    });
    this.watcher.on('error', (error) => (this.status.lastProblem = `watcher: ${String(error)}`));
    // Watch events get lost: chokidar drops a change whose mtime equals the previous one and can
    // miss a rename over the file. A cheap stat every second catches whatever slipped through.
    this.poll = setInterval(() => {
      const stat = fs.statSync(this.file, { throwIfNoEntry: false });
      const seen = stat ? `${stat.ino}:${stat.size}:${stat.mtimeMs}` : 'missing';
      if (seen !== this.lastSeen) void this.refresh();
    }, POLL_MS);
    this.poll.unref();
    await new Promise<void>((resolve) => this.watcher?.once('ready', () => resolve()));
    await this.refresh(); // anything written between the first read and the watcher being ready
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.poll) clearInterval(this.poll);
    await this.watcher?.close();
    this.watcher = null;
    await this.reading;
  }

  /** Reads new bytes; concurrent calls coalesce into one more pass. */
  refresh(): Promise<void> {
    if (this.reading) {
      this.again = true;
      return this.reading;
    }
    this.reading = (async () => {
      do {
        this.again = false;
        await this.readNew();
      } while (this.again && !this.closed);
    })().finally(() => (this.reading = null));
    return this.reading;
  }

  private async readNew(): Promise<void> {
    const stat = fs.statSync(this.file, { throwIfNoEntry: false });
    this.lastSeen = stat ? `${stat.ino}:${stat.size}:${stat.mtimeMs}` : 'missing';
    this.status.exists = Boolean(stat?.isFile());
    if (!stat?.isFile()) {
      this.offset = 0;
      this.nextLine = 1;
      this.ino = null;
      return;
    }
    if (stat.ino !== this.ino || stat.size < this.offset) {
      // replaced or rewritten: start over (items already seen are recognised by their key)
      this.offset = 0;
      this.nextLine = 1;
    }
    const items: FeedItem[] = [];
    const result = await readJsonl(this.file, {
      confineTo: [this.projectDir],
      fromOffset: this.offset,
      firstLine: this.nextLine,
      onLine: (line) => {
        this.status.records++;
        const { item, problem } = parseGateEvent(line.value, line.text, this.projectDir);
        if (problem) {
          this.status.defects++;
          this.status.lastProblem = `line ${line.line}: ${problem}`;
        }
        if (item) items.push(item);
      },
      onDefect: (defect) => {
        if (defect.kind === 'incomplete_tail') return; // the plugin is mid-append; read again on the next change
        this.status.defects++;
        this.status.lastProblem = `line ${defect.line}: ${defect.reason}`;
      },
    });
    if (result.status !== 'ok') {
      this.status.lastProblem = result.message;
      return;
    }
    this.ino = result.identity?.ino ?? null;
    this.offset = result.endOffset;
    this.nextLine = result.nextLine;
    this.status.gateEvents += items.length;
    if (items.length && !this.closed) this.onItems(items, !this.initialDone);
  }
}
