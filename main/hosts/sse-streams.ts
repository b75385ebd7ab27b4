import type { ServerResponse } from 'node:http';
import type { Envelope } from '../../shared/contract';
import { SECURITY_HEADERS } from './http-security';

export interface StreamLimits {
  /** Output a reader may leave unread before its stream is dropped (it resubscribes and refetches). */
  maxBufferedBytes: number;
  maxPerSession: number;
  maxTotal: number;
  heartbeatMs: number;
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  maxBufferedBytes: 1024 * 1024,
  maxPerSession: 16,
  maxTotal: 64,
  heartbeatMs: 15_000,
};

interface OpenStream {
  owner: string;
  stop: () => void;
  heartbeat: ReturnType<typeof setInterval>;
}

/**
 * The browser host's Server-Sent Event streams, bounded: a reader that stops reading is dropped
 * once its unread output passes a limit (rather than the host buffering for it without end),
 * and a session or the host as a whole may hold only so many streams.
 */
export class SseStreams {
  private readonly open = new Map<ServerResponse, OpenStream>();
  private droppedCount = 0;

  constructor(private readonly limits: StreamLimits = DEFAULT_STREAM_LIMITS) {}

  /** Why a new stream for `owner` is refused, or null when it may open. */
  refusal(owner: string): string | null {
    if (this.open.size >= this.limits.maxTotal) {
      return `The console already serves ${this.limits.maxTotal} live streams; close some console tabs and reload.`;
    }
    let mine = 0;
    for (const stream of this.open.values()) if (stream.owner === owner) mine++;
    if (mine >= this.limits.maxPerSession) {
      return `This session already has ${this.limits.maxPerSession} live streams open; reload the tab to start over.`;
    }
    return null;
  }

  /** Starts the stream; `subscribe` receives the writer for its events and returns the unsubscribe. */
  start(response: ServerResponse, owner: string, subscribe: (emit: (event: unknown) => void) => Envelope<() => void>): void {
    response.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream; charset=utf-8', connection: 'keep-alive' });
    // Registered before subscribing: a handler may emit its current state synchronously.
    const stream: OpenStream = { owner, stop: () => {}, heartbeat: setInterval(() => write(': heartbeat\n\n'), this.limits.heartbeatMs) };
    this.open.set(response, stream);
    response.on('close', () => this.release(response));
    const write = (frame: string) => {
      if (!this.open.has(response)) return;
      if (response.writableLength > this.limits.maxBufferedBytes) return this.drop(response);
      response.write(frame);
    };
    const result = subscribe((event) => write(`data: ${JSON.stringify(event)}\n\n`));
    if (!result.ok) {
      this.release(response);
      response.end(`event: error\ndata: ${JSON.stringify(result.error)}\n\n`);
      return;
    }
    if (!this.open.has(response)) return result.value();
    stream.stop = result.value;
    response.write(': subscribed\n\n');
  }

  /** Streams open now, the output they hold unread, and how many were dropped for falling behind. */
  stats(): { open: number; bufferedBytes: number; dropped: number } {
    let bufferedBytes = 0;
    for (const response of this.open.keys()) bufferedBytes += response.writableLength;
    return { open: this.open.size, bufferedBytes, dropped: this.droppedCount };
  }

  closeAll(): void {
    for (const response of [...this.open.keys()]) {
      this.release(response);
      response.end();
    }
  }

  /** Destroying the socket frees what it buffered at once; the page's adapter resubscribes. */
  private drop(response: ServerResponse): void {
    this.droppedCount++;
    this.release(response);
    response.destroy();
  }

  private release(response: ServerResponse): void {
    const stream = this.open.get(response);
    if (!stream) return;
    this.open.delete(response);
    clearInterval(stream.heartbeat);
    stream.stop();
  }
}
