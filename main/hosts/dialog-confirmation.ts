import type { ConfirmationPort, ConfirmationPrompt } from '../core/human/confirmation';

/** The slice of Electron's `dialog.showMessageBox` the port uses (a fake stands in for it in tests). */
export interface MessageBoxOptions {
  type: 'warning';
  title: string;
  message: string;
  detail: string;
  buttons: string[];
  defaultId: number;
  cancelId: number;
  noLink: boolean;
}
type ShowMessageBox = (options: MessageBoxOptions) => Promise<{ response: number }>;

const OK = 1;
const MAX_LISTED_IDS = 20;

function describePrompt(prompt: ConfirmationPrompt): string {
  const ids = prompt.ids.slice(0, MAX_LISTED_IDS).map((id) => `  ${id}`);
  if (prompt.ids.length > MAX_LISTED_IDS) ids.push(`  … and ${prompt.ids.length - MAX_LISTED_IDS} more`);
  return [`Command: ${prompt.op}`, `Ids (${prompt.ids.length}):`, ...ids, `Reason: ${prompt.reason || '(none given)'}`, `Store: ${prompt.store}`, `Fingerprint: ${prompt.fingerprint}`, `Token: ${prompt.token12}`].join('\n');
}

/**
 * Electron's confirmation: a native modal dialog in the main process naming the command, the
 * ids, the reason and the store fingerprint. Only its OK button commits; Cancel is the default,
 * and script in the renderer cannot press either.
 */
export function dialogConfirmation(show: ShowMessageBox): ConfirmationPort {
  return {
    availability: () => ({ enabled: true, mode: 'dialog' }),
    begin: async () => undefined,
    async confirm(prompt) {
      const { response } = await show({
        type: 'warning',
        title: 'Swarm Knowledge Console — confirm a human-only command',
        message: `Confirm ${prompt.title}?`,
        detail: describePrompt(prompt),
        buttons: ['Cancel', 'OK'],
        defaultId: 0,
        cancelId: 0,
        noLink: true,
      });
      return response === OK ? { confirmed: true } : { confirmed: false, reason: 'The person pressed Cancel in the confirmation dialog.', burnToken: false };
    },
  };
}
