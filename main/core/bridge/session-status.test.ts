import { describe, expect, it } from 'vitest';
import { EventProcessor } from './event-processor';

// Issue 19 item 3: `/session/status` lists busy and retrying sessions only, so a session the
// REST listing has and the status map leaves out is idle — never "unknown".
describe('session status after a REST catch-up', () => {
  it('calls a session that /session/status leaves out idle', () => {
    let changes = 0;
    const processor = new EventProcessor('srv', { item() {}, followUp() {}, sessionsChanged: () => changes++, gap() {}, alive() {} });
    processor.mergeSessions(
      [
        { id: 'ses_idle', directory: '/work/p', title: 'quiet' },
        { id: 'ses_busy', directory: '/work/p', title: 'working' },
        { id: 'ses_retry', directory: '/work/p', title: 'retrying' },
      ] as never,
      { ses_busy: { type: 'busy' }, ses_retry: { type: 'retry' } } as never,
    );
    const status = Object.fromEntries(processor.sessionInfos().map((s) => [s.id, s.status]));
    expect(status).toEqual({ ses_idle: 'idle', ses_busy: 'busy', ses_retry: 'retry' });
    expect(changes).toBeGreaterThan(0);
  });
});
