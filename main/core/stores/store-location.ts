import type { StoreDef, StoreTier } from './catalog';

/** Where one catalogued store lives in this workspace (found by `locateStores`). */
export interface StoreLocation {
  def: StoreDef;
  tier: StoreTier;
  rootDir: string;
  /** Prefix of root-relative names for display and `inspect --json` (`.swarm/`, `links/<id>/`, ``). */
  displayPrefix: string;
  /** Matches root-relative paths (with `/`) of this store's files. */
  matcher: RegExp;
}
