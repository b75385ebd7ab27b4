import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sha256Hex } from '../core/rules/canonical-json';
import { ChainBuilder } from '../demo/receipt-chain';
import { run } from './verify';

let project: string;
let swarm: string;

beforeEach(() => {
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'verify-cli-'));
  swarm = path.join(project, '.swarm');
  fs.mkdirSync(swarm);
});
afterEach(() => fs.rmSync(project, { recursive: true, force: true }));

function writeJournal(records = 200): string {
  const j = new ChainBuilder();
  for (let i = 0; i < records; i++) {
    if (i % 2 === 0) j.membership(`t${i}`, [{ entry_id: 'e-1', priority: 'critical' }]);
    else j.terminal(`t${i - 1}`, 'e-1', 'applied', 'reviewer');
  }
  const archive = new ChainBuilder({}, {}, false);
  archive.append({ type: 'closed_summary', phase: 'Phase 1', traces: [], counts: {} });
  fs.writeFileSync(path.join(swarm, 'knowledge-receipts-v2-archive.jsonl'), archive.text());
  const text = j.text();
  fs.writeFileSync(path.join(swarm, 'knowledge-receipts-v2.jsonl'), text);
  return text;
}

/** sha256 and mtime of every file in .swarm, to prove verify leaves them byte-identical. */
function fingerprint(): Record<string, string> {
  return Object.fromEntries(fs.readdirSync(swarm).map((name) => {
    const file = path.join(swarm, name);
    return [name, `${sha256Hex(fs.readFileSync(file))}@${fs.statSync(file).mtimeMs}`];
  }));
}

async function capture(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a) => void out.push(a.join(' ')));
  const error = vi.spyOn(console, 'error').mockImplementation((...a) => void err.push(a.join(' ')));
  try {
    const code = await run(argv);
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

describe('swarm-console verify', () => {
  it('exits 0 with one line per file when every file is ok or absent', async () => {
    writeJournal();
    const before = fingerprint();
    const { code, out } = await capture(['--project', project]);
    expect(code).toBe(0);
    const lines = out.split('\n');
    expect(lines[0]).toBe(`${swarm}: OK — Every V2 receipt file verifies.`);
    expect(lines.slice(1)).toEqual([
      '  journal     ok — 200 records verified (seq 1–200, generation 1)',
      expect.stringMatching(/^ {2}snapshot {4}absent — /),
      '  archive     ok — 1 record verified (seq 1–1)',
      expect.stringMatching(/^ {2}quarantine {2}absent — /),
    ]);
    expect(fingerprint()).toEqual(before);
  });

  it('exits 3 and pinpoints the corrupted record, leaving every file byte-identical', async () => {
    const text = writeJournal();
    const lines = text.split('\n');
    lines[99] = (lines[99] as string).replace('"agent":"architect"', '"agent":"architecT"');
    fs.writeFileSync(path.join(swarm, 'knowledge-receipts-v2.jsonl'), lines.join('\n'));
    const offset = Buffer.byteLength(lines.slice(0, 99).join('\n')) + 1;
    const before = fingerprint();
    const { code, out } = await capture(['--project', project]);
    expect(code).toBe(3);
    expect(out).toContain(`  journal     corrupt at line 100 (byte ${offset}, seq 100): hash mismatch — expected `);
    expect(out).toContain('journal recovery: The plugin fails its gates closed until the ledger is repaired. Run repair_knowledge_receipt_ledger with phase "Phase 4", session "ses_4Fq9xk2"');
    expect(fingerprint()).toEqual(before);
  });

  it('exits 4 when the last line is still being written, and prints JSON with --json', async () => {
    const text = writeJournal();
    fs.writeFileSync(path.join(swarm, 'knowledge-receipts-v2.jsonl'), text.slice(0, -10));
    const before = fingerprint();
    const { code, out } = await capture(['--project', project, '--json']);
    expect(code).toBe(4);
    const parsed = JSON.parse(out);
    expect(parsed).toMatchObject({ verdict: 'attention', exitCode: 4 });
    expect(parsed.files[0]).toMatchObject({ kind: 'journal', state: 'incomplete_tail', tail: { line: 200, parses: false } });
    expect(fingerprint()).toEqual(before);
  });

  it('exits 0 for a project without any V2 file, and 2 for usage errors', async () => {
    expect((await capture(['--project', project])).code).toBe(0);
    expect(await capture([])).toMatchObject({ code: 2, err: expect.stringContaining('--project DIR is required') });
    expect((await capture(['--project', path.join(project, 'missing')])).code).toBe(2);
    expect((await capture(['--project', project, '--bogus'])).code).toBe(2);
  });

  it('runs as `swarm-console verify` from the command line', async () => {
    writeJournal(20);
    const bin = path.resolve(import.meta.dirname, '../../bin/swarm-console.mjs');
    const { stdout } = await promisify(execFile)(process.execPath, [bin, 'verify', '--project', project], { timeout: 60_000 });
    expect(stdout).toContain('journal     ok — 20 records verified');
    fs.appendFileSync(path.join(swarm, 'knowledge-receipts-v2.jsonl'), '\n');
    const failed = await promisify(execFile)(process.execPath, [bin, 'verify', '--project', project], { timeout: 60_000 }).catch((e: { code: number; stdout: string }) => e);
    expect(failed).toMatchObject({ code: 3, stdout: expect.stringContaining('corrupt at line 21') });
  });
});
