import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { anchorPathOf, checkAnchor, readAnchor, writeAnchor, type AnchorCheck } from './audit-anchor';
import { withStoreLock } from './write/store-lock';

/**
 * The console's own audit log: one JSON line per human-only attempt (preview, confirmation,
 * commit, refusal with its reason, rollback, post-write warning). Each record carries the sha256
 * of the previous line's exact bytes, so a removed, edited or reordered record breaks the chain.
 * Lesson text is never written here; ids, token12 and outcomes are. With the per-install secret,
 * an anchor beside the log (audit-anchor.ts) covers the tail the chain cannot see.
 */
const AUDIT_GENESIS = '0'.repeat(64);

export type AuditEvent = 'preview' | 'confirmation' | 'commit' | 'refusal' | 'rollback' | 'warning' | 'reveal';

export interface AuditFields {
  event: AuditEvent;
  op: string;
  outcome: 'ok' | 'refused' | 'aborted' | 'failed' | 'restored' | 'restore_failed' | 'warning';
  host: string;
  token12?: string | null;
  ids?: string[];
  reason?: string;
  /** For refusals: which binding or check failed. */
  binding?: string;
  message?: string;
  backup?: string;
  detail?: Record<string, unknown>;
  /** For confirmations and commits: the process the person confirmed from (TTY, parents, agent markers). */
  confirmed_by?: Record<string, unknown>;
}

export interface AuditRecord extends AuditFields {
  v: 1;
  seq: number;
  at: string;
  prev: string;
  /** Written with an anchor: from then on a missing anchor means it was deleted. */
  anchored?: true;
}

interface ChainCheck {
  ok: boolean;
  records: number;
  /** 1-based line number of the first broken record, and why. */
  brokenAt: number | null;
  problem: string | null;
}

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

function readAuditLines(file: string): string[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

function checkAuditChain(lines: readonly string[]): ChainCheck {
  let prev = AUDIT_GENESIS;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const broken = (problem: string): ChainCheck => ({ ok: false, records: lines.length, brokenAt: i + 1, problem });
    let record: Partial<AuditRecord>;
    try {
      record = JSON.parse(line) as Partial<AuditRecord>;
    } catch {
      return broken('the line is not JSON');
    }
    if (record.seq !== i + 1) return broken(`sequence ${String(record.seq)} where ${i + 1} was expected (a record was removed or inserted)`);
    if (record.prev !== prev) return broken('its hash of the previous record does not match (a record before it was edited, removed or reordered)');
    prev = sha256(line);
  }
  return { ok: true, records: lines.length, brokenAt: null, problem: null };
}

function parseAuditRecords(lines: readonly string[]): (AuditRecord | null)[] {
  return lines.map((line) => {
    try {
      return JSON.parse(line) as AuditRecord;
    } catch {
      return null;
    }
  });
}

export interface AuditRead {
  records: (AuditRecord | null)[];
  chain: ChainCheck;
  anchor: AnchorCheck;
}

/** Problems that stay in the anchor until a person looks: an append must not hide a cut tail. */
const carriedForward = (check: AnchorCheck, at: string) =>
  check.state === 'problem' ? check.problems.filter((p) => !p.startsWith('found at an earlier append') && !p.includes('without updating the anchor')).map((p) => `${at}: ${p}`) : [];

export class AuditLog {
  /** Appends within this process are serialised so each record sees its predecessor. */
  private queue: Promise<unknown> = Promise.resolve();
  readonly anchorFile: string;

  /** `secret`: the per-install secret (null when there is none yet); without it the log is not anchored. */
  constructor(
    readonly file: string,
    private readonly secret: (() => Buffer | null) | null = null,
  ) {
    this.anchorFile = anchorPathOf(file);
  }

  /** Appends within this process are queued; across processes (the app and a `serve` sharing user-data) a lock on the folder orders them. */
  append(fields: AuditFields): Promise<AuditRecord> {
    const next = this.queue.then(() => {
      fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
      return withStoreLock(path.dirname(this.file), async () => this.appendNow(fields), { waitMs: 10_000 });
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  private appendNow(fields: AuditFields): AuditRecord {
    const lines = readAuditLines(this.file);
    const last = lines.at(-1);
    const secret = this.secret?.() ?? null;
    const at = new Date().toISOString();
    const record: AuditRecord = { v: 1, seq: lines.length + 1, at, prev: last === undefined ? AUDIT_GENESIS : sha256(last), ...fields, ...(secret ? { anchored: true as const } : {}) };
    const line = JSON.stringify(record);
    let tamper: string[] = [];
    if (secret) {
      const anchor = readAnchor(this.anchorFile);
      const check = this.checkAnchor(lines, secret, anchor);
      tamper = [...(anchor && anchor !== 'unreadable' ? anchor.tamper : []), ...carriedForward(check, at)];
    }
    fs.appendFileSync(this.file, `${line}\n`, { mode: 0o600 });
    if (secret) writeAnchor(this.anchorFile, secret, [...lines, line], tamper);
    return record;
  }

  private checkAnchor(lines: readonly string[], secret: Buffer | null, anchor = readAnchor(this.anchorFile)): AnchorCheck {
    const anchoredAt = parseAuditRecords(lines).findIndex((r) => r?.anchored === true);
    return checkAnchor({ lines, logExists: fs.existsSync(this.file), anchor, secret, anchoredRecordAt: anchoredAt < 0 ? null : anchoredAt + 1 });
  }

  read(): AuditRead {
    const lines = readAuditLines(this.file);
    return { records: parseAuditRecords(lines), chain: checkAuditChain(lines), anchor: this.checkAnchor(lines, this.secret?.() ?? null) };
  }
}
