import { backgroundWorkPending, noteInteraction } from '../platform/util/foreground';
import type { CallHandlers } from './dispatcher';

/** The page's notices about the operator (shared/contract/ui.ts). */
export function createUiHandlers(): Pick<CallHandlers, 'ui.interacting'> {
  return {
    'ui.interacting': () => {
      noteInteraction();
      return { backgroundWork: backgroundWorkPending() };
    },
  };
}
