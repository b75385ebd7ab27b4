import fs from 'node:fs';

/** What every gate line of `.swarm/events.jsonl` holds (the receipts read nothing else there). */
const GATE_MARKER = Buffer.from('knowledge_application_gate_');
const SCAN_CHUNK = 1024 * 1024;

interface Mark {
  ino: number | null;
  size: number;
}

/**
 * `.swarm/events.jsonl` takes every event the plugin logs, and the receipts use only its gate lines.
 * Re-verifying all receipts (which reads the whole log again) on every append kept a core busy
 * under a flood of other lines; this looks at the appended bytes only and says whether any could
 * be a gate line. A replaced or shrunk file always matters.
 */
export class GateAppendFilter {
  private seen: Mark = { ino: null, size: 0 };
  private scanning: Promise<boolean> = Promise.resolve(false);
  /** Appends that held no gate line (no re-verification for them). */
  ignoredAppends = 0;

  constructor(private readonly file: string) {}

  /** The file as it is now; taken before a verification reads it, adopted once that succeeded. */
  mark(): Mark {
    const stat = fs.statSync(this.file, { throwIfNoEntry: false });
    return { ino: stat?.ino ?? null, size: stat?.size ?? 0 };
  }

  adopt(mark: Mark): void {
    // Never back: a scan may have looked further since this mark was taken.
    if (mark.ino === this.seen.ino && mark.size < this.seen.size) return;
    this.seen = mark;
  }

  /** Whether the change since the last look may hold a gate line (scans are serialised). */
  mayMatter(): Promise<boolean> {
    this.scanning = this.scanning.then(() => this.scan(), () => this.scan());
    return this.scanning;
  }

  /** A `true` moves the mark too: the verification it asks for reads those bytes. */
  private async scan(): Promise<boolean> {
    const now = this.mark();
    if (now.ino === null || now.ino !== this.seen.ino || now.size < this.seen.size) {
      this.seen = now;
      return true;
    }
    if (now.size === this.seen.size) return false;
    // Start a marker's length early: a gate line may have been cut between two appends.
    const from = Math.max(0, this.seen.size - GATE_MARKER.length + 1);
    let handle: fs.promises.FileHandle | undefined;
    try {
      handle = await fs.promises.open(this.file, 'r');
      const buffer = Buffer.alloc(SCAN_CHUNK + GATE_MARKER.length);
      for (let position = from; position < now.size; position += SCAN_CHUNK) {
        const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, now.size - position), position);
        if (buffer.subarray(0, bytesRead).includes(GATE_MARKER)) {
          this.seen = now;
          return true;
        }
      }
    } catch {
      return true;
    } finally {
      await handle?.close().catch(() => undefined);
    }
    this.seen = now;
    this.ignoredAppends++;
    return false;
  }
}
