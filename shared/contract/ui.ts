import { z } from 'zod';
import { NoInput, query } from './define';

/**
 * What the page tells the console about the operator. Scrolling a long table makes the browser
 * render frames that need the CPU the console's background work (the knowledge model's warm-up,
 * clustering) would take; told, that work waits a moment.
 */
export const uiOps = {
  'ui.interacting': query(
    'The operator is scrolling: background work gives way for a moment. Sent at most every ~200 ms while the console has background work, every ~2 s while it says it has none; changes no store.',
    NoInput,
    z.object({ backgroundWork: z.boolean().describe('The console has background work a notice holds back (a recent background turn, a task in a worker)') }).strict(),
  ),
} as const;
