import { isSealed, seal } from '../platform/util/sealed';

/**
 * What the dispatcher made of a sealed answer (checked against the contract, credentials masked),
 * kept per operation for as long as the answer lives. A sealed answer is frozen all the way down,
 * and checking and masking depend on nothing but its content (the credential shapes are fixed in
 * code), so the kept result is exactly what checking and masking it again would give. A producer
 * whose inputs changed answers with a new object, which is checked and masked afresh.
 *
 * A service polled while a result is computed elsewhere (the Inboxes view while clusters grow)
 * then pays for the check and the masking once per version of its answer, not once per poll.
 */
export class AnswerCache {
  private readonly byAnswer = new WeakMap<object, { name: string; output: unknown }>();

  /** The output kept for this very answer of this operation, if any. */
  get(name: string, answer: unknown): unknown {
    if (!isSealed(answer)) return undefined;
    const kept = this.byAnswer.get(answer);
    return kept?.name === name ? kept.output : undefined;
  }

  /** Keeps `output` (sealed too, so no caller can change what the next one gets) when `answer` is sealed; returns it. */
  keep<T>(name: string, answer: unknown, output: T): T {
    if (!isSealed(answer) || output === null || typeof output !== 'object') return output;
    this.byAnswer.set(answer, { name, output: seal(output as object) });
    return output;
  }
}
