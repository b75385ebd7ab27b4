import { createContext, useContext } from 'solid-js';
import type { ConsoleApi } from '../../../shared/contract';
import type { PreloadBridge } from '../../../shared/preload-bridge';
import { establishSession, forgetSession } from './browser-session';
import { createHttpApi } from './http-adapter';
import { createPreloadApi } from './preload-adapter';

type ConnectOutcome = { ok: true; api: ConsoleApi; host: 'electron' | 'browser' } | { ok: false; message: string };

/**
 * Picks the adapter for the host we run in; views only ever see `ConsoleApi`. In the browser
 * the tab signs in first; `onSignedOut` runs if the host later stops knowing its session.
 */
export async function connectConsoleApi(onSignedOut: (message: string) => void): Promise<ConnectOutcome> {
  const bridge = (globalThis as { swarm?: PreloadBridge }).swarm;
  if (bridge) return { ok: true, api: createPreloadApi(bridge), host: 'electron' };
  const session = await establishSession();
  if (!session.ok) return session;
  const api = createHttpApi(session.secret, (message) => {
    forgetSession();
    onSignedOut(message);
  });
  return { ok: true, api, host: 'browser' };
}

export const ApiContext = createContext<ConsoleApi>();

export function useApi(): ConsoleApi {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi() outside <ApiContext.Provider>');
  return api;
}
