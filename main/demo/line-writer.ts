import fs from 'node:fs';
import path from 'node:path';

const BUFFER_BYTES = 1 << 20;

/**
 * Streams lines to a file through one descriptor and a reusable 1 MiB buffer, so a
 * benchmark-sized store never exists as one string in memory. Lines end with `\n`, as the
 * plugin writes them.
 */
export class LineWriter {
  private readonly fd: number;
  private readonly buffer = Buffer.allocUnsafe(BUFFER_BYTES);
  private used = 0;
  bytes = 0;
  lines = 0;

  constructor(readonly file: string, flags: 'w' | 'a' = 'w') {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.fd = fs.openSync(file, flags);
  }

  line(text: string): void {
    this.lines++;
    // UTF-8 needs at most 3 bytes per UTF-16 code unit; flush first unless the line surely fits.
    const worstCase = text.length * 3 + 1;
    if (this.used + worstCase > BUFFER_BYTES) {
      this.flush();
      if (worstCase > BUFFER_BYTES) {
        this.writeAll(Buffer.from(`${text}\n`, 'utf8'));
        return;
      }
    }
    this.used += this.buffer.write(text, this.used, 'utf8');
    this.buffer[this.used++] = 0x0a;
  }

  json(value: unknown): void {
    this.line(JSON.stringify(value));
  }

  flush(): void {
    if (this.used === 0) return;
    this.writeAll(this.buffer.subarray(0, this.used));
    this.used = 0;
  }

  private writeAll(data: Buffer): void {
    let offset = 0;
    while (offset < data.length) offset += fs.writeSync(this.fd, data, offset, data.length - offset);
    this.bytes += data.length;
  }

  close(): void {
    this.flush();
    fs.closeSync(this.fd);
  }
}

/** A whole JSONL file from records already in memory (the small, curated stores). */
export function writeJsonLines(file: string, records: readonly unknown[]): void {
  const writer = new LineWriter(file);
  for (const record of records) writer.json(record);
  writer.close();
}

/** Pretty JSON (2-space indent, trailing newline), the plugin's form for its state files. */
export function writePrettyJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
}

export function writeText(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}
