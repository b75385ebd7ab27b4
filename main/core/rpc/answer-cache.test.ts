import { describe, expect, it } from 'vitest';
import type { Inboxes } from '../../../shared/contract/knowledge';
import { seal } from '../platform/util/sealed';
import { createDispatcher, type Handlers } from './dispatcher';

const SECRET = 'Deploy with API_KEY=k-123-xyz9secret before the smoke test.';
const OTHER_SECRET = 'Rotate GITHUB_TOKEN=ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8 after the incident.';

function inboxes(lesson: string): Inboxes {
  return {
    rejected: [],
    unactionable: [{ id: 'u1', lesson, reason: 'missing_scope', reasonText: 'no scope', quarantinedAt: null, retireCandidate: false, category: 'testing' }],
    duplicates: [],
    duplicatesFreshness: { stale: false, computing: false, asOf: '2026-07-01T00:00:00.000Z' },
  };
}

/** A dispatcher whose knowledge.inboxes answers whatever `answer` holds at the moment of the call. */
function dispatcherAnswering(answer: { current: unknown }) {
  const handlers = { 'knowledge.inboxes': () => answer.current } as unknown as Handlers;
  const dispatcher = createDispatcher(handlers);
  return async () => {
    const result = await dispatcher.call('knowledge.inboxes', {});
    if (!result.ok) throw new Error(result.error.message);
    return result.value as Inboxes;
  };
}

describe('the dispatcher checks and masks a sealed answer once', () => {
  it('gives the kept (masked, frozen) output while the handler answers with the same sealed value', async () => {
    const answer = { current: seal(inboxes(SECRET)) as unknown };
    const call = dispatcherAnswering(answer);
    const first = await call();
    expect(first.unactionable[0]!.lesson).toBe('Deploy with API_KEY=••• before the smoke test.');
    const again = await call();
    expect(again).toBe(first);
    expect(Object.isFrozen(again.unactionable[0])).toBe(true);
    // The handler's own value is untouched by masking.
    expect((answer.current as Inboxes).unactionable[0]!.lesson).toBe(SECRET);
  });

  it('never serves a kept output for another answer: a new sealed value is checked and masked afresh', async () => {
    const answer = { current: seal(inboxes(SECRET)) as unknown };
    const call = dispatcherAnswering(answer);
    const first = await call();
    answer.current = seal(inboxes(OTHER_SECRET));
    const next = await call();
    expect(next).not.toBe(first);
    expect(next.unactionable[0]!.lesson).toBe('Rotate GITHUB_TOKEN=••• after the incident.');
  });

  it('still refuses a sealed answer the contract does not allow, every time, saying where', async () => {
    const bad = seal({ ...inboxes(SECRET), unactionable: [{ id: 'u1' }] });
    const handlers = { 'knowledge.inboxes': () => bad } as unknown as Handlers;
    const dispatcher = createDispatcher(handlers);
    for (let i = 0; i < 2; i++) {
      const result = await dispatcher.call('knowledge.inboxes', {});
      expect(result).toMatchObject({ ok: false, error: { code: 'invalid_output' } });
      const issues = (!result.ok && (result.error as { issues?: { path: string }[] }).issues) || [];
      expect(issues.length).toBeGreaterThan(0);
      for (const issue of issues) expect(issue.path).toMatch(/^unactionable\.0\./);
    }
  });

  it('reuses the output of a field that holds the very object of an earlier answer, and checks a field that is a new object afresh', async () => {
    const earlier = inboxes(SECRET);
    const answer = { current: seal(earlier) as unknown };
    const call = dispatcherAnswering(answer);
    const first = await call();
    // Only the freshness moved: the unactionable list is the same object, so its output is reused.
    answer.current = seal({ ...earlier, duplicatesFreshness: { stale: true, computing: true, asOf: '2026-07-02T00:00:00.000Z' } });
    const stale = await call();
    expect(stale.unactionable).toBe(first.unactionable);
    expect(stale.duplicatesFreshness).toEqual({ stale: true, computing: true, asOf: '2026-07-02T00:00:00.000Z' });
    // A new unactionable list (another lesson, another credential) is checked and masked afresh.
    answer.current = seal({ ...earlier, unactionable: inboxes(OTHER_SECRET).unactionable });
    const next = await call();
    expect(next.unactionable).not.toBe(first.unactionable);
    expect(next.unactionable[0]!.lesson).toBe('Rotate GITHUB_TOKEN=••• after the incident.');
  });

  it('checks an unsealed answer on every call (its content may have changed in place)', async () => {
    const value = inboxes(SECRET);
    const call = dispatcherAnswering({ current: value });
    const first = await call();
    value.unactionable[0]!.lesson = OTHER_SECRET;
    const next = await call();
    expect(first.unactionable[0]!.lesson).toBe('Deploy with API_KEY=••• before the smoke test.');
    expect(next.unactionable[0]!.lesson).toBe('Rotate GITHUB_TOKEN=••• after the incident.');
  });

  it('refuses to seal what is not plain data', () => {
    expect(() => seal({ rows: new Map([[1, 2]]) })).toThrow(/plain data/);
    expect(() => seal([{ at: new Date() }])).toThrow(/plain data/);
  });
});
