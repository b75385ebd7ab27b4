import type { ConfirmationAnswer, ConfirmationPort, ConfirmationPrompt, ConfirmationVerdict } from '../../main/core/human/confirmation';

/**
 * A scripted person for core tests: answers every confirmation with `answer` (true = OK pressed)
 * and remembers what it was shown.
 */
export class FakeConfirmation implements ConfirmationPort {
  readonly shown: ConfirmationPrompt[] = [];
  readonly begun: ConfirmationPrompt[] = [];

  constructor(public answer: boolean | ((prompt: ConfirmationPrompt, given: ConfirmationAnswer) => ConfirmationVerdict) = true) {}

  availability() {
    return { enabled: true as const, mode: 'dialog' as const };
  }

  async begin(prompt: ConfirmationPrompt) {
    this.begun.push(prompt);
  }

  async confirm(prompt: ConfirmationPrompt, given: ConfirmationAnswer): Promise<ConfirmationVerdict> {
    this.shown.push(prompt);
    if (typeof this.answer === 'function') return this.answer(prompt, given);
    return this.answer ? { confirmed: true } : { confirmed: false, reason: 'The person pressed Cancel.', burnToken: false };
  }
}
