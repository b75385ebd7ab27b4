import { z } from 'zod';

/**
 * The building blocks of the contract. Every operation the renderer may use is one entry:
 * its kind, a runtime schema for its input and one for its output. Types are inferred from
 * the schemas so nothing is written twice.
 */
export type OpKind = 'query' | 'command' | 'subscription';

export interface OpSpec<K extends OpKind = OpKind, I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  readonly kind: K;
  readonly input: I;
  /** For a subscription: the schema of one pushed event. */
  readonly output: O;
  readonly summary: string;
}

export const query = <I extends z.ZodType, O extends z.ZodType>(summary: string, input: I, output: O): OpSpec<'query', I, O> => ({
  kind: 'query',
  input,
  output,
  summary,
});

/** Commands change state. Human-only commands additionally require a confirmation token. */
export const command = <I extends z.ZodType, O extends z.ZodType>(summary: string, input: I, output: O): OpSpec<'command', I, O> => ({
  kind: 'command',
  input,
  output,
  summary,
});

export const subscription = <I extends z.ZodType, O extends z.ZodType>(
  summary: string,
  input: I,
  event: O,
): OpSpec<'subscription', I, O> => ({ kind: 'subscription', input, output: event, summary });

export const NoInput = z.object({}).strict();

/** The envelope every host uses to carry a result or a failure across a process boundary. */
export const ErrorCode = z.enum(['invalid_input', 'invalid_output', 'unknown_operation', 'not_found', 'unavailable', 'failed', 'forbidden']);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const ConsoleErrorShape = z.object({
  code: ErrorCode,
  message: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ConsoleErrorShape = z.infer<typeof ConsoleErrorShape>;

export type Envelope<T> = { ok: true; value: T } | { ok: false; error: ConsoleErrorShape };

export class ConsoleError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly issues?: ConsoleErrorShape['issues'],
  ) {
    super(message);
    this.name = 'ConsoleError';
  }

  toShape(): ConsoleErrorShape {
    return { code: this.code, message: this.message, ...(this.issues ? { issues: this.issues } : {}) };
  }

  static fromShape(shape: ConsoleErrorShape): ConsoleError {
    return new ConsoleError(shape.code, shape.message, shape.issues);
  }
}

/** Turns zod issues into "field.path: message" lines an operator can act on. */
export function describeIssues(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.map((issue) => ({
    path: issue.path.length ? issue.path.map(String).join('.') : '(root)',
    message: issue.message,
  }));
}
