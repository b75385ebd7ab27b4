import path from 'node:path';
import { parseArgs } from 'node:util';
import { AuditLog, type AuditRecord } from '../core/human/audit-log';
import { humanStatePaths, readSecret } from '../core/human/secret';
import { resolveConsoleUserDataDir } from '../core/platform/paths/platform-data-dir';
import { terminalJson, terminalLine } from '../core/platform/util/terminal-text';

/** Control characters escaped: record fields come from a file anyone with the user's rights can edit. */
const printable = (value: unknown) => terminalLine(String(value ?? ''));

function line(record: AuditRecord | null, index: number): string {
  if (!record) return `#${index + 1}  (unreadable line)`;
  const parts = [`#${record.seq}`, record.at, record.event, record.op, record.outcome, `host=${record.host}`];
  if (record.token12) parts.push(`token=${record.token12}`);
  if (record.ids?.length) parts.push(`ids=${record.ids.join(',')}`);
  if (record.backup) parts.push(`backup=${record.backup}`);
  if (record.binding) parts.push(`binding=${record.binding}`);
  if (record.reason) parts.push(`reason=${JSON.stringify(record.reason)}`);
  if (record.message) parts.push(`— ${record.message}`);
  return parts.map(printable).join('  ');
}

/** `swarm-console audit [--json] [--user-data DIR]`: the console's audit log, read-only; exit 3 on a broken chain or a tail the anchor disowns. */
export async function run(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { json: { type: 'boolean' }, 'user-data': { type: 'string' } }, strict: true, allowPositionals: false }));
  } catch (error) {
    console.error(`swarm-console audit: ${(error as Error).message}`);
    return 2;
  }
  const userDataDir = path.resolve(values['user-data'] ?? resolveConsoleUserDataDir());
  const paths = humanStatePaths(userDataDir);
  // Read-only: the secret is read if there is one, never created.
  const log = new AuditLog(paths.audit, () => readSecret(paths));
  const { records, chain, anchor } = log.read();
  if (values.json) {
    process.stdout.write(`${terminalJson(JSON.stringify({ path: log.file, chain, anchor, records }, null, 2))}\n`);
  } else {
    process.stdout.write(`${printable(`Audit log ${log.file}: ${records.length} records`)}\n`);
    records.forEach((record, i) => process.stdout.write(`${line(record, i)}\n`));
    process.stdout.write(chain.ok ? `Chain intact (${chain.records} records).\n` : `CHAIN BROKEN at record ${chain.brokenAt}: ${chain.problem}\n`);
    if (anchor.state === 'absent') process.stdout.write(`Anchor: ${anchor.note}.\n`);
    else if (anchor.state === 'ok') process.stdout.write(`Anchor matches the last record.\n`);
    else for (const problem of anchor.problems) process.stdout.write(`${printable(`ANCHOR: ${problem}`)}\n`);
  }
  return chain.ok && anchor.state !== 'problem' ? 0 : 3;
}
