import { createContext, useContext } from 'solid-js';
import type { ConsoleApi } from '../../../shared/contract';
import type { PreloadBridge } from '../../../shared/preload-bridge';
import { createHttpApi } from './http-adapter';
import { createPreloadApi } from './preload-adapter';

/** Picks the adapter for the host we run in; views only ever see `ConsoleApi`. */
export function detectConsoleApi(): { api: ConsoleApi; host: 'electron' | 'browser' } {
  const bridge = (globalThis as { swarm?: PreloadBridge }).swarm;
  return bridge ? { api: createPreloadApi(bridge), host: 'electron' } : { api: createHttpApi(), host: 'browser' };
}

export const ApiContext = createContext<ConsoleApi>();

export function useApi(): ConsoleApi {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi() outside <ApiContext.Provider>');
  return api;
}
