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
  /**
   * Set on human-only actions: `preview` (a query: what would happen + a confirmation token) and
   * `commit` (a command carrying that token and the person's confirmation). The dispatcher refuses
   * both when the calling host cannot ask a person, and a commit without token or confirmation.
   */
  readonly humanOnly?: 'preview' | 'commit';
  /**
   * Set only on the reveal command: its output is the unmasked store text a person asked for.
   * Every other output leaves the core with credentials masked (see the dispatcher).
   */
  readonly reveals?: true;
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

/** A human-only preview: reads, mints a confirmation token, writes nothing to any store. */
export const humanPreview = <I extends z.ZodType, O extends z.ZodType>(summary: string, input: I, output: O): OpSpec<'query', I, O> => ({
  ...query(summary, input, output),
  humanOnly: 'preview',
});

/** The person's confirmation of a commit: the one-time code typed in the browser host; empty in Electron (its dialog asks). */
const HumanConfirmation = z.object({ code: z.string().max(16).optional() }).strict();

/** What every human-only commit carries: the preview's token, the person's confirmation, their reason. */
export const HumanCommitFields = {
  token: z.string().min(1).max(16_384),
  confirmation: HumanConfirmation,
  reason: z.string().trim().min(1, 'say why (it goes into the audit log)').max(500),
};

/** A human-only commit; its input must include `HumanCommitFields`. */
export const humanCommit = <I extends z.ZodType, O extends z.ZodType>(summary: string, input: I, output: O): OpSpec<'command', I, O> => ({
  ...command(summary, input, output),
  humanOnly: 'commit',
});

/** A command whose output is one entry's unmasked text; the core audits each call. */
export const revealCommand = <I extends z.ZodType, O extends z.ZodType>(summary: string, input: I, output: O): OpSpec<'command', I, O> => ({
  ...command(summary, input, output),
  reveals: true,
});

export const subscription = <I extends z.ZodType, O extends z.ZodType>(
  summary: string,
  input: I,
  event: O,
): OpSpec<'subscription', I, O> => ({ kind: 'subscription', input, output: event, summary });

export const NoInput = z.object({}).strict();

/** The envelope every host uses to carry a result or a failure across a process boundary. */
const ErrorCode = z.enum(['invalid_input', 'invalid_output', 'unknown_operation', 'not_found', 'unavailable', 'failed', 'forbidden']);
type ErrorCode = z.infer<typeof ErrorCode>;

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
