import { describe, expect, it } from 'vitest';
import { activeForMs, watchBackgroundWork } from '../platform/util/foreground';
import { createDispatcher, type Handlers } from './dispatcher';
import { createUiHandlers } from './ui-handlers';

describe('ui.interacting', () => {
  // Only this call is registered: the dispatcher looks a handler up by the name called.
  const dispatcher = createDispatcher(createUiHandlers() as unknown as Handlers);

  it('marks the operator active in this process and answers at once whether there is background work to hold back', async () => {
    expect(activeForMs()).toBe(0);
    expect(await dispatcher.call('ui.interacting', {})).toEqual({ ok: true, value: { backgroundWork: false } });
    expect(activeForMs()).toBeGreaterThan(0);
    const ended = watchBackgroundWork();
    try {
      expect(await dispatcher.call('ui.interacting', {})).toEqual({ ok: true, value: { backgroundWork: true } });
    } finally {
      ended();
    }
  });

  it('takes no input', async () => {
    expect(await dispatcher.call('ui.interacting', { since: 1 })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });
});
