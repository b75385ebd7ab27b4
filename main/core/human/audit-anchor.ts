import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { canonicalJson } from '../rules/canonical-json';

/**
 * The audit log's anchor: the sequence number and sha256 of its last record, HMAC-signed with the
 * per-install secret and rewritten (temp + rename) under the same lock as each append. The hash
 * chain alone cannot see its own tail: removing the last records, rewriting the last one, or
 * emptying the log leaves a valid chain. Against the anchor, each of those shows.
 *
 * A problem found while appending is carried forward in the anchor (`tamper`), so the next append
 * does not hide it by re-anchoring the shortened log.
 */
export interface AuditAnchor {
  v: 1;
  seq: number;
  head: string;
  tamper: string[];
  mac: string;
}

export type AnchorCheck =
  | { state: 'ok'; problems: [] }
  /** A log written before anchoring: said once, and anchored on the next append. */
  | { state: 'absent'; problems: []; note: string }
  | { state: 'problem'; problems: string[] };

export const NO_ANCHOR_YET = 'no anchor yet (log predates anchoring)';

export const anchorPathOf = (logFile: string) => path.join(path.dirname(logFile), `${path.basename(logFile, '.jsonl')}-anchor.json`);

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');
const macOf = (secret: Buffer, anchor: Omit<AuditAnchor, 'mac'>) => crypto.createHmac('sha256', secret).update(canonicalJson(anchor)).digest('hex');

export function readAnchor(file: string): AuditAnchor | null | 'unreadable' {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return 'unreadable';
  }
  try {
    const value = JSON.parse(text) as AuditAnchor;
    if (value.v !== 1 || !Number.isInteger(value.seq) || typeof value.head !== 'string' || !Array.isArray(value.tamper) || typeof value.mac !== 'string') return 'unreadable';
    return value;
  } catch {
    return 'unreadable';
  }
}

export function writeAnchor(file: string, secret: Buffer, lines: readonly string[], tamper: readonly string[]): void {
  const last = lines.at(-1);
  const body = { v: 1 as const, seq: lines.length, head: last === undefined ? '' : sha256(last), tamper: [...tamper] };
  const temp = `${file}.tmp.${process.pid}.${crypto.randomInt(1e9)}`;
  fs.writeFileSync(temp, `${JSON.stringify({ ...body, mac: macOf(secret, body) })}\n`, { mode: 0o600 });
  fs.renameSync(temp, file);
}

export interface AnchorInputs {
  lines: readonly string[];
  logExists: boolean;
  anchor: AuditAnchor | null | 'unreadable';
  /** null when the per-install secret is missing: the anchor cannot be verified. */
  secret: Buffer | null;
  /** Some record says it was written after anchoring began (then a missing anchor was removed). */
  anchoredRecordAt: number | null;
}

/** What the anchor says about the log's tail; every problem is named. */
export function checkAnchor({ lines, logExists, anchor, secret, anchoredRecordAt }: AnchorInputs): AnchorCheck {
  if (anchor === null) {
    if (lines.length === 0 && !logExists) return { state: 'absent', problems: [], note: 'no records yet' };
    if (anchoredRecordAt !== null) return { state: 'problem', problems: [`the anchor is missing, but record #${anchoredRecordAt} was written with one (the anchor was deleted)`] };
    return { state: 'absent', problems: [], note: NO_ANCHOR_YET };
  }
  if (anchor === 'unreadable') return { state: 'problem', problems: ['the anchor is unreadable (edited or torn)'] };
  const problems: string[] = [];
  const { mac, ...body } = anchor;
  if (secret === null) problems.push('the anchor cannot be verified: the per-install secret is missing');
  else {
    const wanted = Buffer.from(macOf(secret, body), 'hex');
    const given = Buffer.from(mac, 'hex');
    if (given.length !== wanted.length || !crypto.timingSafeEqual(given, wanted)) problems.push("the anchor's signature does not match (the anchor was edited or written by another install): mismatched anchor");
  }
  for (const earlier of anchor.tamper) problems.push(`found at an earlier append: ${earlier}`);
  if (!logExists && anchor.seq > 0) problems.push(`the log is missing; the anchor says it held ${anchor.seq} records (deleted log)`);
  else if (lines.length === 0 && anchor.seq > 0) problems.push(`the log is empty; the anchor says it held ${anchor.seq} records (emptied log)`);
  else if (lines.length < anchor.seq) problems.push(`the log ends at record ${lines.length}; the anchor says ${anchor.seq} (truncated: ${anchor.seq - lines.length} record(s) removed from the end)`);
  else if (anchor.seq > 0 && sha256(lines[anchor.seq - 1] as string) !== anchor.head) problems.push(`record ${anchor.seq} is not the one anchored (rewritten tail)`);
  else if (lines.length > anchor.seq) problems.push(`records ${anchor.seq + 1}–${lines.length} were added without updating the anchor (mismatched anchor)`);
  return problems.length === 0 ? { state: 'ok', problems: [] } : { state: 'problem', problems };
}
