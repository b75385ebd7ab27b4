import { createContext, useContext } from 'solid-js';
import type { Router } from './route';

export const RouterContext = createContext<Router>();

/** The hash router: current area + URL params (saved filters), `go()` and `setParams()`. */
export function useRouter(): Router {
  const router = useContext(RouterContext);
  if (!router) throw new Error('useRouter() outside <RouterContext.Provider>');
  return router;
}
