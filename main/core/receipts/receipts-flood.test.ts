import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../../testing/bridge/wait';
import { gateWarnEvent, line } from '../../../testing/stores/sample-records';
import { ReceiptsService } from './receipts-service';

// Issue 10 item 6: every append to events.jsonl re-read the whole log for the receipts, so a flood
// of other (here: invalid) lines kept a core busy. Counted, not timed: appends without a gate line
// cause no verification; the one gate line that follows causes exactly one.

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const append = (file: string, text: string) =>
  new Promise<void>((resolve, reject) => execFile('sh', ['-c', 'printf %s "$1" >> "$2"', 'sh', text, file], (error) => (error ? reject(error) : resolve())));

describe('receipts and a flood of events.jsonl lines', () => {
  it('verifies again only for appends that hold a gate line', async () => {
    const projectDir = fs.mkdtempSync(path.join(os.tmpdir(), 'receipts-flood-'));
    cleanups.push(() => fs.rmSync(projectDir, { recursive: true, force: true }));
    const swarmDir = path.join(projectDir, '.swarm');
    const events = path.join(swarmDir, 'events.jsonl');
    fs.mkdirSync(swarmDir);
    fs.writeFileSync(events, line(gateWarnEvent()));
    const service = new ReceiptsService({ projectDir, swarmDir, knowledgeDir: swarmDir }, { debounceMs: 1 });
    cleanups.push(() => service.dispose());
    await service.watching;
    const swarmEvents = async () => (await service.model()).sources.find((s) => s.id === 'swarm-events');
    expect(await swarmEvents()).toMatchObject({ lines: 1, defects: 0 });
    const reverified: string[][] = [];
    service.onChange((event) => reverified.push(event.changed));

    const chunks = 6;
    for (let chunk = 1; chunk <= chunks; chunk++) {
      await append(events, '{not json, not a gate line\n'.repeat(2_000));
      await waitFor(() => service.eventsLog.ignoredAppends >= chunk, `append ${chunk} looked at`);
    }
    await append(events, line(gateWarnEvent({ timestamp: '2026-07-02T00:00:00.000Z' })));
    await waitFor(() => reverified.length > 0, 'a verification after the gate line');
    expect(reverified).toEqual([['events.jsonl']]);
    // The verification read everything appended, bad lines included.
    expect(await swarmEvents()).toMatchObject({ lines: chunks * 2_000 + 2, defects: chunks * 2_000 });
  });
});
