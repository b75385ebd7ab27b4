/**
 * Incremental parser for a `text/event-stream` body. Hand-written instead of the SDK's SSE client
 * because that client (hey-api, in @opencode-ai/sdk 1.18.33) re-scans and re-splits its whole buffer
 * on every chunk with no size limit, so one huge part grows memory and CPU without bound, and it
 * hides the HTTP status behind a retry loop (3 s doubling, counter never reset), so a 401 cannot be
 * told apart from a dead server. Here every event is capped: data beyond `maxEventChars` is dropped
 * while it streams in and reported once as `oversized`.
 *
 * Only `data:` lines matter for OpenCode (it sends no `event:`/`id:`/`retry:`); comment lines
 * (`: heartbeat`) are ignored.
 */
interface SseParserOptions {
  maxEventChars: number;
  onData(data: string): void;
  onOversized(approxChars: number): void;
}

export class SseParser {
  private partialLine = '';
  private dataLines: string[] = [];
  private dataChars = 0;
  /** The current event went over the cap: swallow the rest of it until its blank line. */
  private discarding = false;
  private discardedChars = 0;

  constructor(private readonly options: SseParserOptions) {}

  push(chunk: string): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf('\n', start);
      if (newline < 0) break;
      let line = chunk.slice(start, newline);
      start = newline + 1;
      if (this.partialLine) {
        line = this.partialLine + line;
        this.partialLine = '';
      }
      this.line(line.endsWith('\r') ? line.slice(0, -1) : line);
    }
    const rest = chunk.slice(start);
    if (!rest) return;
    if (this.discarding) {
      this.discardedChars += rest.length;
      return;
    }
    this.partialLine += rest;
    if (this.partialLine.length + this.dataChars > this.options.maxEventChars) this.startDiscarding(this.partialLine.length);
  }

  /** End of stream: an event without its closing blank line is incomplete and dropped. */
  end(): void {
    this.partialLine = '';
    this.reset();
  }

  private startDiscarding(extra: number): void {
    this.discarding = true;
    this.discardedChars = this.dataChars + extra;
    this.partialLine = '';
    this.dataLines = [];
    this.dataChars = 0;
  }

  private reset(): void {
    this.dataLines = [];
    this.dataChars = 0;
    this.discarding = false;
    this.discardedChars = 0;
  }

  private line(line: string): void {
    if (line === '') {
      if (this.discarding) this.options.onOversized(this.discardedChars);
      else if (this.dataLines.length) this.options.onData(this.dataLines.join('\n'));
      this.reset();
      return;
    }
    if (this.discarding) {
      this.discardedChars += line.length + 1;
      return;
    }
    if (!line.startsWith('data:')) return; // comments, event:, id:, retry: carry nothing we use
    const value = line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5);
    if (this.dataChars + value.length > this.options.maxEventChars) {
      this.startDiscarding(value.length);
      return;
    }
    this.dataLines.push(value);
    this.dataChars += value.length;
  }
}
