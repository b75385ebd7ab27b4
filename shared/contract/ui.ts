import { z } from 'zod';
import { NoInput, query } from './define';

/**
 * What the page tells the console about the operator. Scrolling a long table makes the browser
 * render frames that need the CPU the console's background work (the knowledge model's warm-up,
 * clustering) would take; told, that work waits a moment.
 */
export const uiOps = {
  'ui.interacting': query(
    'The operator is scrolling: background work gives way for a moment. Sent at most every ~200 ms, never awaited; changes no store.',
    NoInput,
    z.object({}).strict(),
  ),
} as const;
