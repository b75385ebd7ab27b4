/**
 * How a person confirms a human-only commit, per host. The core only sees this port:
 * Electron implements it with a native modal dialog (main/hosts/), the browser host with a
 * one-time code printed on the terminal that started `serve`. A caller without a port (a script,
 * the CLI, a test that did not ask for one) gets `noPersonPresent`, which refuses everything.
 */
export type ConfirmationAvailability = { enabled: true; mode: 'dialog' | 'code' } | { enabled: false; reason: string };

export interface ConfirmationPrompt {
  /** The commit operation, e.g. `hive.quarantine.commit`. */
  op: string;
  /** "hive quarantine of 2 entries": what the person is asked to approve. */
  title: string;
  token12: string;
  ids: readonly string[];
  /** The reason the person typed (empty before the commit). */
  reason: string;
  /** The store and its fingerprint, in words. */
  store: string;
  fingerprint: string;
}

export interface ConfirmationAnswer {
  /** The one-time code typed by the person (browser host). */
  code?: string | undefined;
}

/** `closedUntil`: the channel refuses every code until then (too many wrong codes across tokens). */
export type ConfirmationVerdict = { confirmed: true } | { confirmed: false; reason: string; burnToken: boolean; closedUntil?: number };

/** The process a person confirmed from (its TTY, parent chain, agent markers), written into the audit. */
export type ConfirmationContext = Record<string, unknown>;

export interface ConfirmationPort {
  availability(): ConfirmationAvailability;
  /** Starts a confirmation (the browser host prints a fresh code on its terminal). */
  begin(prompt: ConfirmationPrompt): Promise<void>;
  /** Asks the person (dialog) or checks their answer (code). */
  confirm(prompt: ConfirmationPrompt, answer: ConfirmationAnswer): Promise<ConfirmationVerdict>;
  /** Where confirmations come from; recorded in every audit record of a confirmation. */
  context?(): ConfirmationContext;
}

/** Who is calling through a host: carried from the host to the human-only handlers. */
export interface CallerContext {
  host: 'electron' | 'browser' | 'none';
  confirmation: ConfirmationPort;
}

const noPersonPresent = (reason = 'No person can confirm through this caller: human-only commands run only from the console window.'): ConfirmationPort => ({
  availability: () => ({ enabled: false, reason }),
  begin: async () => undefined,
  confirm: async () => ({ confirmed: false, reason, burnToken: false }),
});

export const NO_CALLER: CallerContext = { host: 'none', confirmation: noPersonPresent() };
