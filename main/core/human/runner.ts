/**
 * The human-only pipeline every write to a plugin store goes through.
 *
 * How a new human-only command plugs in (hive quarantine in ./hive/ is the worked example):
 * 1. Contract (shared/contract/): a `humanPreview(...)` query and a `humanCommit(...)` command
 *    whose input spreads `HumanCommitFields` (token, confirmation, reason). The dispatcher then
 *    refuses both for a caller that cannot ask a person, and a commit lacking token/confirmation.
 * 2. Register a title for the commit op with `services.describe(op, payload => 'skill apply of …')`:
 *    the person sees it in the Electron dialog and on the serve terminal.
 * 3. Preview handler: read the live store (`readStoreSnapshot`), compute what would happen, then
 *    `services.preview(caller, { op, target, ids, lines, store, bind })` mints the token and audits.
 *    Nothing is written to any store in a preview.
 * 4. Commit handler: `services.commit(caller, input, op, execute)`. The runner verifies the token
 *    (signature in constant time, command, console version, expiry, single use), asks the person
 *    through the caller's ConfirmationPort, spends the nonce, then calls `execute(payload, token12)`
 *    and audits the outcome. `execute` writes ONLY through `runTransaction` (write/transaction.ts),
 *    the one write protocol, given the locks, the files, a backup place, a `check` (usually
 *    `checkLiveBindings` against the snapshots) and a `plan` (complete new bytes per file): it
 *    checks containment, backs up and hash-verifies, takes every lock in one global order,
 *    re-verifies, renames temp files into place, appends to append-only logs, verifies after the
 *    lock and restores from the backup on failure. Throw `TokenRefusal` (a binding differs) or
 *    `CommitAbort` (lock timeout, backup) to refuse: the runner turns them into
 *    `forbidden`/`failed` with the message and audits them. Audit the success with
 *    `services.record(caller, { event: 'commit', … })`.
 * 5. Tests: a FakeConfirmation (testing/) stands in for the person; `stepObservers` and
 *    `SWARM_CONSOLE_PAUSE_AT` (write/pause-points.ts) stop a commit at a step.
 */
import os from 'node:os';
import { ConsoleError } from '../../../shared/contract';
import { AuditLog, type AuditFields } from './audit-log';
import type { CallerContext, ConfirmationPrompt } from './confirmation';
import { UsedNonces } from './nonce-store';
import { derivedKey, humanStatePaths, loadOrCreateSecret, type HumanStatePaths } from './secret';
import { mintToken, TokenRefusal, token12Of, verifyToken, type MintedToken, type TokenPayload, type TokenSubject } from './tokens';
import { describeFingerprint } from './write/store-snapshot';

/** A commit that stopped cleanly before changing anything (or after restoring): `code` as in the backup result. */
export class CommitAbort extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'CommitAbort';
  }
}

export const WRONG_CODE_LIMIT = 3;

interface HumanServicesOptions {
  userDataDir: string;
  consoleVersion: string;
  /** How long a commit waits for a busy plugin lock before aborting cleanly. */
  lockWaitMs?: number;
  /** When to re-read a written store for a concurrent revert (docs/plugin-formats.md#second-process-writes, rule 8: re-read 2–5 s later). */
  revertCheckMs?: number;
  /** Told how long each write held a plugin lock (for the benchmark). */
  onLockHeld?: (heldMs: number, lockDir: string) => void;
}

export interface HumanCommitInput {
  token: string;
  reason: string;
  confirmation: { code?: string | undefined };
}

type Describe = (payload: TokenPayload) => string;

export class HumanServices {
  readonly paths: HumanStatePaths;
  readonly audit: AuditLog;
  readonly nonces: UsedNonces;
  readonly consoleVersion: string;
  readonly lockWaitMs: number;
  readonly revertCheckMs: number;
  readonly hostUser: string;
  readonly onLockHeld: ((heldMs: number, lockDir: string) => void) | undefined;
  private secretBytes: Buffer | null = null;
  private readonly titles = new Map<string, Describe>();

  constructor(options: HumanServicesOptions) {
    this.paths = humanStatePaths(options.userDataDir);
    this.audit = new AuditLog(this.paths.audit, () => this.secret());
    this.nonces = new UsedNonces(this.paths.usedNonces);
    this.consoleVersion = options.consoleVersion;
    this.lockWaitMs = options.lockWaitMs ?? 5_000;
    this.revertCheckMs = options.revertCheckMs ?? 3_000;
    this.hostUser = safeUserName();
    this.onLockHeld = options.onLockHeld;
  }

  /** Options for every `withStoreLock` a command takes. */
  lockOptions(): { waitMs: number; onHeld?: (heldMs: number, lockDir: string) => void } {
    return this.onLockHeld ? { waitMs: this.lockWaitMs, onHeld: this.onLockHeld } : { waitMs: this.lockWaitMs };
  }

  private secret(): Buffer {
    this.secretBytes ??= loadOrCreateSecret(this.paths);
    return this.secretBytes;
  }

  /** Signs and checks backup manifests (write/backup-signature.ts): only this install can make one that verifies. */
  backupSigningKey(): Buffer {
    return derivedKey(this.secret(), 'backup-manifest-v1');
  }

  /** Names what a commit op does, for the person's confirmation. */
  describe(op: string, title: Describe): void {
    this.titles.set(op, title);
  }

  private prompt(payload: TokenPayload, token12: string, reason: string): ConfirmationPrompt {
    const title = this.titles.get(payload.op)?.(payload) ?? `${payload.op} of ${payload.ids.length} entries`;
    return { op: payload.op, title, token12, ids: payload.ids, reason, store: payload.target, fingerprint: describeFingerprint(payload.store) };
  }

  /** Audits an attempt; records of a confirmation (and the commit it allowed) name the process that confirmed. */
  async record(caller: CallerContext, fields: Omit<AuditFields, 'host'>): Promise<void> {
    const aboutConfirmation = fields.event === 'confirmation' || fields.event === 'commit' || fields.binding === 'confirmation';
    const context = aboutConfirmation ? caller.confirmation.context?.() : undefined;
    await this.audit.append({ ...fields, host: caller.host, ...(context ? { confirmed_by: context } : {}) });
  }

  /** Mints the token for what the preview showed and audits the preview. */
  async preview(caller: CallerContext, subject: Omit<TokenSubject, 'console_version'>): Promise<MintedToken> {
    const minted = mintToken(this.secret(), { ...subject, console_version: this.consoleVersion });
    await this.record(caller, { event: 'preview', op: subject.op, outcome: 'ok', token12: minted.token12, ids: minted.payload.ids, detail: { store_sha256: subject.store.file_sha256, entry_count: subject.store.entry_count } });
    return minted;
  }

  private async refuse(caller: CallerContext, op: string, token: string, error: unknown, ids: string[] = [], reason?: string): Promise<never> {
    if (error instanceof TokenRefusal) {
      await this.record(caller, { event: 'refusal', op, outcome: 'refused', token12: error.token12 ?? token12Of(token), ids, reason, binding: error.binding, message: error.message });
      throw new ConsoleError('forbidden', `Refused (${error.binding}): ${error.message}`);
    }
    if (error instanceof CommitAbort) {
      await this.record(caller, { event: 'refusal', op, outcome: 'aborted', token12: token12Of(token), ids, reason, binding: error.code, message: error.message });
      throw new ConsoleError('failed', `Aborted (${error.code}): ${error.message}`);
    }
    const message = error instanceof Error ? error.message : String(error);
    await this.record(caller, { event: 'refusal', op, outcome: 'failed', token12: token12Of(token), ids, reason, binding: 'error', message });
    throw new ConsoleError('failed', message);
  }

  private verified(token: string, op: string): { payload: TokenPayload; token12: string } {
    const checked = verifyToken(this.secret(), token, { op, consoleVersion: this.consoleVersion });
    const spent = this.nonces.spent(checked.payload.nonce);
    if (spent) throw new TokenRefusal('single use', `This token was already ${spent}; each preview's token commits once. Run the preview again.`, checked.token12);
    return checked;
  }

  /** Starts the person's confirmation for a token (the browser host prints its one-time code). */
  async beginConfirmation(caller: CallerContext, token: string): Promise<{ mode: 'dialog' | 'code'; token12: string }> {
    const availability = caller.confirmation.availability();
    const claimedOp = claimedOpOf(token);
    if (!availability.enabled) {
      await this.record(caller, { event: 'refusal', op: claimedOp ?? 'unknown', outcome: 'refused', token12: token12Of(token), binding: 'confirmation', message: availability.reason });
      throw new ConsoleError('forbidden', availability.reason);
    }
    if (!claimedOp || !this.titles.has(claimedOp)) {
      return this.refuse(caller, claimedOp ?? 'unknown', token, new TokenRefusal('format', 'This is not a token for a human-only command of this console.'));
    }
    let checked;
    try {
      checked = this.verified(token, claimedOp);
    } catch (error) {
      return this.refuse(caller, claimedOp, token, error);
    }
    await caller.confirmation.begin(this.prompt(checked.payload, checked.token12, ''));
    await this.record(caller, { event: 'confirmation', op: claimedOp, outcome: 'ok', token12: checked.token12, ids: checked.payload.ids, message: `asked the person (${availability.mode})` });
    return { mode: availability.mode, token12: checked.token12 };
  }

  /** Verifies, asks the person, spends the token, runs `execute`, and audits every outcome. */
  async commit<R>(caller: CallerContext, input: HumanCommitInput, op: string, execute: (payload: TokenPayload, token12: string) => Promise<R>): Promise<R> {
    if (!hasPrintableText(input.reason)) {
      await this.record(caller, { event: 'refusal', op, outcome: 'refused', token12: token12Of(input.token), binding: 'reason', message: EMPTY_REASON });
      throw new ConsoleError('invalid_input', EMPTY_REASON);
    }
    let checked;
    try {
      checked = this.verified(input.token, op);
    } catch (error) {
      return this.refuse(caller, op, input.token, error, [], input.reason);
    }
    const { payload, token12 } = checked;
    const verdict = await caller.confirmation.confirm(this.prompt(payload, token12, input.reason), input.confirmation);
    if (!verdict.confirmed) {
      const closed = verdict.closedUntil !== undefined;
      if (verdict.burnToken) await this.nonces.spend(payload.nonce, payload.exp, closed ? 'burnt when too many wrong codes closed the confirmation channel' : `burnt after ${WRONG_CODE_LIMIT} wrong confirmation codes`);
      const detail = closed ? { channel_closed_until: new Date(verdict.closedUntil as number).toISOString() } : undefined;
      await this.record(caller, { event: 'refusal', op, outcome: 'refused', token12, ids: payload.ids, reason: input.reason, binding: 'confirmation', message: verdict.reason, ...(detail ? { detail } : {}) });
      throw new ConsoleError('forbidden', `Not confirmed: ${verdict.reason}`);
    }
    if (!(await this.nonces.spend(payload.nonce, payload.exp, 'used'))) {
      return this.refuse(caller, op, input.token, new TokenRefusal('single use', 'This token was used by another commit a moment ago.', token12), payload.ids, input.reason);
    }
    try {
      return await execute(payload, token12);
    } catch (error) {
      return this.refuse(caller, op, input.token, error, payload.ids, input.reason);
    }
  }
}

const EMPTY_REASON = 'Say why in words: the reason has no printable text once control characters are removed (it goes into the audit log and the store).';

/** The reason as stores keep it (control and invisible format characters out) still says something. */
export function hasPrintableText(reason: string): boolean {
  // eslint-disable-next-line no-control-regex
  const cleaned = reason.replace(/[\u0000-\u001f\u007f-\u009f\p{Cf}]/gu, ' ').trim();
  return /[\p{L}\p{N}\p{P}\p{S}]/u.test(cleaned);
}

/** The op a token says it is for, read without trusting it (verification follows). */
function claimedOpOf(token: string): string | null {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { op?: unknown };
    return typeof payload.op === 'string' ? payload.op.slice(0, 80) : null;
  } catch {
    return null;
  }
}

function safeUserName(): string {
  try {
    return os.userInfo().username;
  } catch {
    return 'unknown';
  }
}
