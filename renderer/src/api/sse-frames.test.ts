import { describe, expect, it } from 'vitest';
import { createSseFramer, type SseFrame } from './sse-frames';

describe('the SSE framer', () => {
  it('frames events split across chunks, comments, named events and multi-line data', () => {
    const frames: SseFrame[] = [];
    const feed = createSseFramer((frame) => frames.push(frame));
    for (const chunk of [': subscri', 'bed\n\ndata: {"a":', '1}\n\n', 'event: error\r\ndata: x\r\ndata: y\r\n\r\n', 'data: unfinished']) feed(chunk);
    expect(frames).toEqual([
      { event: null, data: null, comments: ['subscribed'] },
      { event: null, data: '{"a":1}', comments: [] },
      { event: 'error', data: 'x\ny', comments: [] },
    ]);
  });
});
