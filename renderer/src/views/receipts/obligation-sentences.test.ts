import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Obligation } from '../../../../shared/contract/receipts';
import { openDemoConsole, type DemoConsole } from '../../../../testing/demo/demo-console';
import { obligationSentences } from './never-answered';

// Issue 19 item 2 on the released demo (inventory-api, as opencode-swarm 7.103.2 writes): the
// Obligations panel's per-display count and per-directive list never contradict each other, in
// the whole project and in every phase filter.

type Data = { counts: { open: number; released: number; answered: number; releasedThenAnswered: number }; obligations: Obligation[] };

let demo: DemoConsole;
beforeAll(async () => {
  demo = await openDemoConsole();
  await demo.open('inventory-api');
}, 180_000);
afterAll(async () => demo?.dispose());

/** Fails when the two sentences read as a contradiction, or do not say what they count. */
function checkConsistent(data: Data): { perDisplay: string; perDirective: string } {
  const s = obligationSentences(data.counts, data.obligations);
  expect(s.perDisplay).toMatch(/^Per display: /);
  expect(s.perDirective).toMatch(/^Per directive: /);
  const answered = new Set(data.obligations.filter((o) => o.status === 'answered').map((o) => o.entryId));
  const openOfAnswered = data.obligations.filter((o) => o.status === 'open' && answered.has(o.entryId)).length;
  if (openOfAnswered > 0) expect(s.perDirective).toContain(`${openOfAnswered} open display${openOfAnswered === 1 ? ' belongs' : 's belong'} to`);
  else expect(s.perDirective).not.toContain('open display');
  if (/every critical directive/.test(s.perDirective)) expect(data.obligations.filter((o) => o.status === 'open' && !answered.has(o.entryId))).toEqual([]);
  return s;
}

describe('Obligations on the released demo', () => {
  it('says per display and per directive, and accounts for open displays of answered directives', async () => {
    const all = await demo.call<Data>('receipts.obligations', { status: 'all' });
    const s = checkConsistent(all);
    expect(s.perDisplay).toContain(`${all.counts.open} still open (no answer to that display)`);
    expect(s.perDirective).toMatch(/^Per directive: 2 critical directives were shown and never answered on any display\. \d+ open displays? belongs? to (a directive|\d+ directives) answered on another display\.$/);
  });

  it('stays consistent in every phase filter', async () => {
    const { phases } = await demo.call<{ phases: { phase: string }[] }>('receipts.phases', {});
    expect(phases.length).toBeGreaterThan(2);
    for (const { phase } of phases) checkConsistent(await demo.call<Data>('receipts.obligations', { status: 'all', phase }));
  });

  it('qualifies "every directive got an answer" when some of their displays are still open', async () => {
    // The released demo's own obligations for the directive answered with applied markers, some of its displays still open.
    const all = await demo.call<Data>('receipts.obligations', { status: 'all' });
    const answeredIds = new Set(all.obligations.filter((o) => o.status === 'answered').map((o) => o.entryId));
    const mixed = all.obligations.filter((o) => answeredIds.has(o.entryId));
    const open = mixed.filter((o) => o.status === 'open').length;
    expect(open).toBeGreaterThan(0);
    const counts = { open, released: 0, answered: mixed.filter((o) => o.status === 'answered').length, releasedThenAnswered: 0 };
    const s = checkConsistent({ counts, obligations: mixed });
    expect(s.perDisplay).toContain(`${open} still open`);
    expect(s.perDirective).toContain('every critical directive that was shown got an answer to at least one of its displays');
    expect(s.perDirective).toContain(`${open} open display${open === 1 ? ' belongs' : 's belong'} to`);
  });
});
