import crypto from 'node:crypto';
import type { ConfirmationPort } from '../core/human/confirmation';
import { WRONG_CODE_LIMIT } from '../core/human/runner';

export const NO_TERMINAL_REASON =
  'This console was not started from an interactive terminal (`swarm-console serve` needs stdin and stdout on a terminal), so no person can confirm here. Everything stays readable; to quarantine or restore, run `swarm-console serve` in a terminal or open the desktop app.';

interface TerminalConfirmationOptions {
  /** stdin and stdout are both TTYs: the plugin's own rule for human-only commands. */
  interactive: boolean;
  /** Writes one line to that terminal, and nowhere else. */
  print(line: string): void;
  newCode?: () => string;
}

/**
 * The browser host's confirmation: for each commit a one-time 6-digit code is printed on the
 * terminal that runs `serve` (never in an HTTP response, a log file, or the page) and the person
 * types it into the page. Three wrong codes burn the token.
 */
export function terminalConfirmation(options: TerminalConfirmationOptions): ConfirmationPort {
  const newCode = options.newCode ?? (() => String(crypto.randomInt(0, 1_000_000)).padStart(6, '0'));
  const pending = new Map<string, { code: string; wrong: number }>();
  return {
    availability: () => (options.interactive ? { enabled: true, mode: 'code' } : { enabled: false, reason: NO_TERMINAL_REASON }),
    async begin(prompt) {
      if (!options.interactive) return;
      // A new code replaces the old one; the wrong-code count carries over so asking again does not reset it.
      const code = newCode();
      pending.set(prompt.token12, { code, wrong: pending.get(prompt.token12)?.wrong ?? 0 });
      options.print(`Confirm ${prompt.title} (token ${prompt.token12.slice(0, 4)}…): ${code}`);
    },
    async confirm(prompt, answer) {
      if (!options.interactive) return { confirmed: false, reason: NO_TERMINAL_REASON, burnToken: false };
      const state = pending.get(prompt.token12);
      if (!state) return { confirmed: false, reason: 'No code was issued for this token: ask for a confirmation code first.', burnToken: false };
      const typed = (answer.code ?? '').trim();
      if (typed === '') return { confirmed: false, reason: 'Type the 6-digit code printed on the terminal that runs `swarm-console serve`.', burnToken: false };
      const match = typed.length === state.code.length && crypto.timingSafeEqual(Buffer.from(typed), Buffer.from(state.code));
      if (match) {
        pending.delete(prompt.token12);
        return { confirmed: true };
      }
      state.wrong += 1;
      if (state.wrong >= WRONG_CODE_LIMIT) {
        pending.delete(prompt.token12);
        return { confirmed: false, reason: `${WRONG_CODE_LIMIT} wrong codes: this token is burnt. Preview again for a new one.`, burnToken: true };
      }
      const left = WRONG_CODE_LIMIT - state.wrong;
      return { confirmed: false, reason: `Wrong code; ${left} ${left === 1 ? 'try' : 'tries'} left before this token is burnt.`, burnToken: false };
    },
  };
}
