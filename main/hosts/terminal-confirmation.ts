import crypto from 'node:crypto';
import type { ConfirmationPort } from '../core/human/confirmation';
import { WRONG_CODE_LIMIT } from '../core/human/runner';
import { terminalLine } from '../core/platform/util/terminal-text';
import { AGENT_SHELL_REASON, type ProcessContext } from './terminal-process-context';

export const NO_TERMINAL_REASON =
  'This console was not started from an interactive terminal (`swarm-console serve` needs its stdin on a terminal, and that terminal as stdout or as /dev/tty when stdout is piped), so no person can confirm here. Everything stays readable; to quarantine or restore, run `swarm-console serve` in a terminal or open the desktop app.';

/**
 * Wrong codes across all tokens: three per token burn it, but a script could preview again every
 * three guesses. Past this many wrong codes within the window the channel closes for a while.
 */
export const WRONG_CODE_BUDGET = { limit: 10, windowMs: 10 * 60_000, closedMs: 10 * 60_000 };

export interface TerminalConfirmationOptions {
  /** A person's terminal: stdin a TTY and the codes printed on that same terminal (stdout, or /dev/tty when stdout is piped). */
  interactive: boolean;
  /** Writes one line to that terminal, and nowhere else (never a pipe or a log file). */
  print(line: string): void;
  newCode?: () => string;
  /** The process `serve` runs in; with agent markers, the channel is refused. */
  process?: ProcessContext;
  now?: () => number;
}

const clock = (ms: number) => new Date(ms).toISOString().slice(11, 19);

export const closedReason = (until: number) =>
  `Too many wrong confirmation codes (${WRONG_CODE_BUDGET.limit} in ${WRONG_CODE_BUDGET.windowMs / 60_000} minutes): confirmations are closed until ${clock(until)} UTC (${new Date(until).toISOString()}).`;

/**
 * The browser host's confirmation: for each commit a one-time 6-digit code is printed on the
 * terminal that runs `serve` (never in an HTTP response, a log file, or the page) and the person
 * types it into the page. Three wrong codes burn the token; ten wrong codes in ten minutes, over
 * any tokens, close the channel for ten minutes. Everything printed is escaped: a title names
 * entry ids, and an id may hold terminal escape sequences.
 */
export function terminalConfirmation(options: TerminalConfirmationOptions): ConfirmationPort {
  const newCode = options.newCode ?? (() => String(crypto.randomInt(0, 1_000_000)).padStart(6, '0'));
  const now = options.now ?? Date.now;
  const print = (line: string) => options.print(terminalLine(line));
  const pending = new Map<string, { code: string; wrong: number }>();
  let wrongAt: number[] = [];
  let closedUntil = 0;
  const agentShell = (options.process?.agentMarkers.length ?? 0) > 0;
  const refusal = (): string | null => {
    if (!options.interactive) return NO_TERMINAL_REASON;
    if (agentShell) return AGENT_SHELL_REASON;
    if (now() < closedUntil) return closedReason(closedUntil);
    return null;
  };
  return {
    availability: () => {
      const reason = refusal();
      return reason === null ? { enabled: true, mode: 'code' } : { enabled: false, reason };
    },
    context: () => ({ channel: 'terminal code', ...(options.process ?? {}) }),
    async begin(prompt) {
      if (refusal() !== null) return;
      // A new code replaces the old one; the wrong-code count carries over so asking again does not reset it.
      const code = newCode();
      pending.set(prompt.token12, { code, wrong: pending.get(prompt.token12)?.wrong ?? 0 });
      print(`Confirm ${prompt.title} (token ${prompt.token12.slice(0, 4)}…): ${code}`);
    },
    async confirm(prompt, answer) {
      const refused = refusal();
      if (refused !== null) return { confirmed: false, reason: refused, burnToken: false, ...(closedUntil > now() ? { closedUntil } : {}) };
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
      const at = now();
      wrongAt = [...wrongAt.filter((t) => at - t < WRONG_CODE_BUDGET.windowMs), at];
      if (wrongAt.length >= WRONG_CODE_BUDGET.limit) {
        closedUntil = at + WRONG_CODE_BUDGET.closedMs;
        wrongAt = [];
        // Every outstanding code dies with the channel; the token that hit the limit is burnt.
        pending.clear();
        const reason = closedReason(closedUntil);
        print(reason);
        return { confirmed: false, reason, burnToken: true, closedUntil };
      }
      if (state.wrong >= WRONG_CODE_LIMIT) {
        pending.delete(prompt.token12);
        return { confirmed: false, reason: `${WRONG_CODE_LIMIT} wrong codes: this token is burnt. Preview again for a new one.`, burnToken: true };
      }
      const left = WRONG_CODE_LIMIT - state.wrong;
      return { confirmed: false, reason: `Wrong code; ${left} ${left === 1 ? 'try' : 'tries'} left before this token is burnt.`, burnToken: false };
    },
  };
}
