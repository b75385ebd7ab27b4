import { seal } from '../platform/util/sealed';

/**
 * The last answer of a request and what it was made of. While every part is the same (the same
 * objects: a model's triage, a completed clustering result; the same freshness values), the same
 * sealed answer is given again, so the dispatcher checks and masks it once (rpc/answer-cache.ts);
 * a part that changed makes a new answer. The parts must name everything the answer says.
 */
export class KeptAnswer<T extends object> {
  private last: { parts: readonly unknown[]; answer: T } | null = null;

  of(parts: readonly unknown[], make: () => T): T {
    const last = this.last;
    if (last && last.parts.length === parts.length && last.parts.every((part, i) => Object.is(part, parts[i]))) return last.answer;
    const answer = seal(make());
    this.last = { parts, answer };
    return answer;
  }
}
