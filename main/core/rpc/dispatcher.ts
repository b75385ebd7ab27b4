import {
  ConsoleError,
  contract,
  describeIssues,
  isOpName,
  type CallName,
  type Envelope,
  type Output,
  type ParsedInput,
  type SubscriptionName,
} from '../../../shared/contract';
import { NO_CALLER, type CallerContext } from '../human/confirmation';
import { maskDeep } from '../platform/util/credentials';
import { AnswerCache } from './answer-cache';

export type CallHandlers = { [K in CallName]: (input: ParsedInput<K>, caller: CallerContext) => Promise<Output<K>> | Output<K> };
export type SubscriptionHandlers = {
  [K in SubscriptionName]: (input: ParsedInput<K>, emit: (event: Output<K>) => void) => () => void;
};
export type Handlers = CallHandlers & SubscriptionHandlers;

/**
 * The single entry point both hosts use. It validates every input against the contract
 * before a handler sees it, and every output before it leaves the process, so a host
 * never forwards anything the contract does not describe.
 *
 * A host binds its caller with `forCaller` (Electron: the native dialog; browser host: the
 * terminal code). Calls through the unbound dispatcher come from no person, so human-only
 * operations are refused there.
 *
 * Credentials in store text are masked here, once, on the way out (every result and every pushed
 * event), so no view has to remember to; only the audited reveal command returns them. A handler
 * that answers with a sealed value (frozen all the way down) has it checked and masked once for
 * as long as it answers with that same value, and its fields that are objects of an earlier
 * answer are not checked again (answer-cache.ts).
 */
export interface Dispatcher {
  call(name: unknown, input: unknown): Promise<Envelope<unknown>>;
  subscribe(name: unknown, input: unknown, emit: (event: unknown) => void): Envelope<() => void>;
  forCaller(caller: CallerContext): Dispatcher;
}

interface DispatcherHooks {
  /** Told of every human-only call the dispatcher itself refuses (for the audit log). */
  onHumanRefusal?(name: string, caller: CallerContext, message: string): void | Promise<void>;
}

function failure(error: unknown): Envelope<never> {
  if (error instanceof ConsoleError) return { ok: false, error: error.toShape() };
  const message = error instanceof Error ? error.message : String(error);
  return { ok: false, error: { code: 'failed', message } };
}

function parseInput(name: string, input: unknown) {
  const spec = contract[name as keyof typeof contract];
  const parsed = spec.input.safeParse(input ?? {});
  if (!parsed.success) {
    const issues = describeIssues(parsed.error);
    const detail = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
    throw new ConsoleError('invalid_input', `Invalid input for ${name}: ${detail}`, issues);
  }
  return parsed.data;
}

/** The refusal of a human-only call this caller may not make, or null when it may go on. */
function humanOnlyRefusal(name: CallName, input: unknown, caller: CallerContext): string | null {
  const mark = (contract[name] as { humanOnly?: 'preview' | 'commit' }).humanOnly;
  if (!mark) return null;
  const availability = caller.confirmation.availability();
  if (!availability.enabled) return `${name} is human-only and disabled here: ${availability.reason}`;
  if (mark === 'commit') {
    const raw = (input ?? {}) as { token?: unknown; confirmation?: unknown };
    if (typeof raw.token !== 'string' || raw.token === '') {
      return `${name} is human-only: it needs the confirmation token from its preview. Preview the change in the console window first.`;
    }
    if (raw.confirmation === null || typeof raw.confirmation !== 'object') {
      return `${name} is human-only: it needs the person's confirmation (the console's dialog, or the code printed on the serve terminal).`;
    }
  }
  return null;
}

export function createDispatcher(handlers: Handlers, hooks: DispatcherHooks = {}, caller: CallerContext = NO_CALLER, answers = new AnswerCache()): Dispatcher {
  return {
    async call(name, input) {
      try {
        if (!isOpName(name) || contract[name].kind === 'subscription') {
          throw new ConsoleError('unknown_operation', `Unknown operation: ${String(name).slice(0, 80)}`);
        }
        const refusal = humanOnlyRefusal(name as CallName, input, caller);
        if (refusal) {
          await hooks.onHumanRefusal?.(name, caller, refusal);
          throw new ConsoleError('forbidden', refusal);
        }
        const value = await (handlers[name as CallName] as (i: unknown, c: CallerContext) => unknown)(parseInput(name, input), caller);
        const spec = contract[name];
        // Only the reveal command's output leaves unmasked (and is never kept).
        const checked = (spec as { reveals?: true }).reveals ? spec.output.safeParse(value) : answers.checked(name, spec.output, value);
        if (!checked.success) {
          const issues = describeIssues(checked.error);
          throw new ConsoleError('invalid_output', `${name} produced output the contract does not allow`, issues);
        }
        return { ok: true, value: checked.data };
      } catch (error) {
        return failure(error);
      }
    },
    subscribe(name, input, emit) {
      try {
        if (!isOpName(name) || contract[name].kind !== 'subscription') {
          throw new ConsoleError('unknown_operation', `Unknown subscription: ${String(name).slice(0, 80)}`);
        }
        const spec = contract[name];
        const handler = handlers[name as SubscriptionName] as (i: unknown, e: (event: unknown) => void) => () => void;
        const stop = handler(parseInput(name, input), (event) => {
          const checked = spec.output.safeParse(event);
          if (checked.success) emit(maskDeep(checked.data));
          else console.error(`[contract] dropped an invalid ${name} event:`, describeIssues(checked.error));
        });
        return { ok: true, value: stop };
      } catch (error) {
        return failure(error);
      }
    },
    forCaller(next) {
      return createDispatcher(handlers, hooks, next, answers);
    },
  };
}
