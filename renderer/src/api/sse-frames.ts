/** One Server-Sent Events frame: `event:`/`data:` fields, or the text of a `:` comment line. */
export interface SseFrame {
  event: string | null;
  data: string | null;
  comments: string[];
}

/**
 * Splits an SSE byte stream (already decoded to text, in arbitrary chunks) into frames.
 * `EventSource` would do this, but it cannot send the session header, so the adapter reads the
 * stream with fetch and frames it here.
 */
export function createSseFramer(onFrame: (frame: SseFrame) => void): (chunk: string) => void {
  let pending = '';
  return (chunk) => {
    pending += chunk.replace(/\r\n?/g, '\n');
    let end: number;
    while ((end = pending.indexOf('\n\n')) !== -1) {
      const block = pending.slice(0, end);
      pending = pending.slice(end + 2);
      const frame: SseFrame = { event: null, data: null, comments: [] };
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) frame.comments.push(line.slice(1).trim());
        else if (line.startsWith('event:')) frame.event = line.slice(6).trim();
        else if (line.startsWith('data:')) {
          const value = line.slice(5).replace(/^ /, '');
          frame.data = frame.data === null ? value : `${frame.data}\n${value}`;
        }
      }
      onFrame(frame);
    }
  };
}
