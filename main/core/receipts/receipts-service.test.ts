import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ChainBuilder } from '../../demo/receipt-chain';
import { ReceiptsService } from './receipts-service';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function serviceFor(debounceMs: number): { service: ReceiptsService; journal: string; text: string } {
  const projectDir = fs.mkdtempSync(path.join(os.tmpdir(), 'receipts-service-'));
  cleanups.push(() => fs.rmSync(projectDir, { recursive: true, force: true }));
  const swarmDir = path.join(projectDir, '.swarm');
  fs.mkdirSync(swarmDir);
  const builder = new ChainBuilder();
  builder.membership('t1', [{ entry_id: 'e1', priority: 'critical' }]);
  builder.terminal('t1', 'e1', 'applied', 'reviewer');
  const journal = path.join(swarmDir, 'knowledge-receipts-v2.jsonl');
  const text = builder.text();
  fs.writeFileSync(journal, text);
  const service = new ReceiptsService({ projectDir, swarmDir, knowledgeDir: swarmDir }, { debounceMs });
  cleanups.push(() => service.dispose());
  return { service, journal, text };
}

describe('ReceiptsService', () => {
  it('verifies again on an explicit load unless a verification just finished', async () => {
    const { service, journal, text } = serviceFor(60_000);
    expect((await service.refresh()).integrity.verdict).toBe('ok');
    fs.writeFileSync(journal, text.replace('"reviewer"', '"Reviewer"'));
    expect((await service.recent(60_000)).integrity.verdict).toBe('ok');
    expect((await service.recent(0)).integrity.verdict).toBe('corrupt');
  });

  it('tells listeners after a receipt file changed and was verified again', async () => {
    const { service, journal, text } = serviceFor(50);
    await service.watching;
    const events: string[][] = [];
    service.onChange((event) => events.push([event.integrity.verdict, ...event.changed]));
    fs.appendFileSync(journal, text.split('\n')[0] as string);
    const deadline = Date.now() + 15_000;
    while (!events.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(events[0]).toEqual(['attention', 'knowledge-receipts-v2.jsonl']);
    expect((await service.model()).integrity.files[0]?.state).toBe('incomplete_tail');
  });
});
