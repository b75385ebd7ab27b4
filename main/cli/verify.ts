import { maskCredentials } from '../core/platform/util/credentials';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Integrity } from '../../shared/contract/receipts';
import { verifyReceipts } from '../core/receipts/verify-receipts';
import { terminalJson, terminalText } from '../core/platform/util/terminal-text';

/**
 * `swarm-console verify --project DIR [--json]`: verifies the V2 receipt files of one project,
 * read-only (files are opened for reading only and never written), with one line per file.
 *
 * Exit codes: 0 every file ok or absent; 3 something is corrupt (or has an unsupported schema,
 * or cannot be read — the plugin fails closed on all three); 4 nothing corrupt but something
 * needs attention (last line still being written, stale snapshot, unverifiable legacy
 * receipts); 2 usage error.
 */

export const VERIFY_USAGE = `Usage: swarm-console verify --project DIR [--json]

Verifies <DIR>/.swarm/knowledge-receipts-v2.jsonl (sequence, prev linkage, record hashes, schema,
checkpoint generations), its archive and quarantine chains, and the snapshot against a rebuild.
Never writes anything.

Exit codes: 0 ok or absent · 3 corrupt / unsupported schema / unreadable · 4 needs attention · 2 usage`;

export const EXIT = { ok: 0, usage: 2, corrupt: 3, attention: 4 } as const;

export function exitCodeOf(verdict: Integrity['verdict']): number {
  return verdict === 'ok' ? EXIT.ok : verdict === 'corrupt' ? EXIT.corrupt : EXIT.attention;
}

export function formatIntegrity(integrity: Integrity): string {
  const lines = [`${integrity.swarmDir}: ${integrity.verdict.toUpperCase()} — ${integrity.summary}`];
  const width = Math.max(...integrity.files.map((f) => f.kind.length));
  for (const file of integrity.files) lines.push(`  ${file.kind.padEnd(width)}  ${file.reason}`);
  for (const file of integrity.files) {
    if (file.tail && file.state === 'incomplete_tail') lines.push('', `${file.kind}: ${file.tail.pluginView}`);
    if (file.recovery && file.state !== 'ok') lines.push('', `${file.kind} recovery: ${file.recovery.text}`);
  }
  return lines.join('\n');
}

export async function run(argv: string[]): Promise<number> {
  let values: { project?: string | undefined; json?: boolean | undefined; help?: boolean | undefined };
  try {
    ({ values } = parseArgs({ args: argv, options: { project: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, strict: true }));
  } catch (error) {
    console.error(`swarm-console verify: ${(error as Error).message}\n\n${VERIFY_USAGE}`);
    return EXIT.usage;
  }
  if (values.help) {
    console.log(VERIFY_USAGE);
    return EXIT.ok;
  }
  if (!values.project) {
    console.error(`swarm-console verify: --project DIR is required\n\n${VERIFY_USAGE}`);
    return EXIT.usage;
  }
  const projectDir = path.resolve(values.project);
  if (!fs.statSync(projectDir, { throwIfNoEntry: false })?.isDirectory()) {
    console.error(`swarm-console verify: project folder does not exist: ${projectDir}`);
    return EXIT.usage;
  }
  const { integrity } = await verifyReceipts(path.join(projectDir, '.swarm'));
  const exitCode = exitCodeOf(integrity.verdict);
  // Credentials in store text are masked on the way out, as everywhere (platform/util/credentials.ts).
  if (values.json) console.log(terminalJson(maskCredentials(JSON.stringify({ ...integrity, exitCode }, null, 2))));
  else console.log(terminalText(maskCredentials(formatIntegrity(integrity))));
  return exitCode;
}
