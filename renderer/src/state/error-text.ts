import { ConsoleError } from '../../../shared/contract';

/**
 * What the operator reads when something fails. Errors the console core or its host reported
 * (ConsoleError: refusals, wrong codes, validation) are written for people and shown as they are;
 * anything else is the page's own fault (a framework error such as "Stale read from <Show>", a
 * TypeError), whose text means nothing to the operator, so it is replaced by a plain sentence and
 * logged for developers.
 */
export const PAGE_FAULT = 'The page hit an internal error while showing this step. Whatever the console wrote is in the audit log (Hive quarantine); reload this area to go on.';

export function operatorMessage(error: unknown): string {
  if (error instanceof ConsoleError) return error.message;
  console.error('page fault', error);
  return PAGE_FAULT;
}
