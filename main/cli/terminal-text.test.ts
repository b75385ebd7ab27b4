import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeSseServer, syncToolPart, type FakeSseServer } from '../../testing/bridge/fake-sse-server';
import { gateDenyEvent, line, swarmEntryV2 } from '../../testing/stores/sample-records';
import { terminalLine, terminalText } from '../core/platform/util/terminal-text';

// Issue 10 item 9: store bytes and OpenCode tool errors must not drive the operator's terminal.

const repo = path.resolve(__dirname, '..', '..');
/** Sets the window title, clears the screen, and a one-byte CSI (C1) that moves the cursor. */
const HOSTILE = '\x1b]0;owned\x07\x1b[2J\x9b2A\r\x7f';
// Any control character except the newline between lines (and tab) reaching the terminal fails the test.
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(repo, 'bin', 'swarm-console.mjs'), ...args], { cwd: repo }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function hostileProject() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'terminal-text-'));
  cleanups.push(() => fs.rmSync(root, { recursive: true, force: true }));
  const project = path.join(root, 'project');
  const swarm = path.join(project, '.swarm');
  fs.mkdirSync(swarm, { recursive: true });
  fs.mkdirSync(path.join(root, 'hive'));
  // A line that is not JSON (its first bytes go into the defect reason) and one with a bad field.
  fs.writeFileSync(path.join(swarm, 'knowledge.jsonl'), `${HOSTILE} not json\n${line(swarmEntryV2({ id: 'x', confidence: HOSTILE }))}`);
  fs.writeFileSync(path.join(swarm, 'events.jsonl'), line(gateDenyEvent({ message: `blocked ${HOSTILE} here` })));
  fs.writeFileSync(path.join(swarm, 'knowledge-receipts-v2.jsonl'), `${HOSTILE}\n`);
  return { project, hive: path.join(root, 'hive') };
}

describe('terminal text', () => {
  it('escapes C0, DEL and C1 controls, keeping newlines only where they are structure', () => {
    expect(terminalText(`a${HOSTILE}\nb\tc`)).toBe('a\\x1b]0;owned\\x07\\x1b[2J\\x9b2A\\x0d\\x7f\nb\tc');
    expect(terminalLine('one\ntwo\x1b')).toBe('one\\x0atwo\\x1b');
  });

  it('inspect prints hostile store bytes escaped, as text and as JSON', async () => {
    const ws = hostileProject();
    const text = await cli(['inspect', '--project', ws.project, '--hive', ws.hive]);
    expect(text.stdout).toContain('\\x1b]0;owned\\x07');
    expect(text.stdout + text.stderr).not.toMatch(RAW_CONTROL);
    const json = await cli(['inspect', '--project', ws.project, '--hive', ws.hive, '--json']);
    expect(json.stdout + json.stderr).not.toMatch(RAW_CONTROL);
    const reason = JSON.parse(json.stdout).stores.find((s: { key: string }) => s.key === 'knowledge').defects[0].reason as string;
    expect(reason).toContain('\x1b]0;owned'); // JSON keeps the exact text, escaped in its own syntax
  });

  it('verify prints hostile receipt bytes escaped', async () => {
    const ws = hostileProject();
    for (const args of [[], ['--json']]) {
      const result = await cli(['verify', '--project', ws.project, ...args]);
      expect(result.stdout + result.stderr).not.toMatch(RAW_CONTROL);
    }
  });

  it('denials prints an OpenCode tool error and an events.jsonl message with controls escaped', async () => {
    const ws = hostileProject();
    const fake: FakeSseServer = await startFakeSseServer();
    cleanups.push(() => fake.close());
    const envelope = syncToolPart({
      sessionID: 'ses_hostile',
      seq: 0,
      partID: 'prt_h',
      callID: 'call_h',
      tool: 'bash',
      status: 'error',
      directory: ws.project,
      error: `KNOWLEDGE_ENFORCE_GATE_DENY: bash blocked — critical knowledge directive(s) KD-0042 require KNOWLEDGE_APPLIED:KD-0042 before this tool may run ${HOSTILE}`,
    }) as { payload: { syncEvent: { id: string; type: string; data: unknown } } };
    const stored = envelope.payload.syncEvent;
    fake.history.push({ id: stored.id, aggregate_id: 'ses_hostile', seq: 0, type: stored.type, data: stored.data });
    for (const args of [[], ['--json']]) {
      const opencode = await cli(['denials', '--opencode', fake.url, ...args]);
      expect(opencode.code).toBe(0);
      expect(opencode.stdout).toContain('call_h');
      expect(opencode.stdout + opencode.stderr).not.toMatch(RAW_CONTROL);
      const events = await cli(['denials', '--project', ws.project, ...args]);
      expect(events.code).toBe(0);
      expect(events.stdout).toContain('blocked');
      expect(events.stdout + events.stderr).not.toMatch(RAW_CONTROL);
    }
  });
});
