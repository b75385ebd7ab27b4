import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '../../testing/bridge/fake-llm';
import { GATE_DIRECTIVE_ID } from '../../testing/bridge/gate-plugin';
import { OpencodeServer } from '../../testing/bridge/opencode-harness';
import { opencodeBinary, opencodeSkipNote } from '../../testing/bridge/opencode-binary';
import { waitFor } from '../../testing/bridge/wait';

// `swarm-console denials` as an operator runs it, against the real opencode binary.

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/swarm-console.mjs');

interface JsonLine {
  time: string;
  source: string;
  sessionID: string | null;
  tool: string | null;
  callID: string | null;
  gate: string;
  directiveIds: string[];
  message: string;
  sources: string[];
  kind: string;
}

function cli(args: string[]) {
  const child = spawn(process.execPath, [CLI, 'denials', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    exited,
    lines: () => stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as JsonLine),
    stderr: () => stderr,
  };
}

describe.skipIf(!opencodeBinary.ok)(`swarm-console denials (real opencode serve)${opencodeSkipNote}`, () => {
  let llm: FakeLlm;
  let server: OpencodeServer;

  beforeAll(async () => {
    llm = await startFakeLlm();
    server = await OpencodeServer.start({ llmBaseUrl: llm.baseUrl, password: 'pw-cli' });
  }, 240_000);

  afterAll(async () => {
    await server?.dispose();
    await llm?.close();
  }, 60_000);

  it('prints the merged feed as JSON lines and exits; with --follow it keeps printing', async () => {
    const session = await server.createSession('cli');
    await server.prompt(session.id, 'CALL knowledge_probe {"topic":"cli"}');
    await server.prompt(session.id, 'CALL bash {"command":"echo fine","description":"allowed"}');
    // the plugin's own log of the same denial, plus a warn of another session
    // the moment of denial as the server stored it (the plugin logs its event at that moment)
    const messages = await server.request<{ parts: { type: string; state?: { status: string; time?: { end?: number } } }[] }[]>('GET', `/session/${session.id}/message`);
    const deniedPart = messages.flatMap((m) => m.parts).find((p) => p.type === 'tool' && p.state?.status === 'error');
    const denialAt = deniedPart?.state?.time?.end ?? Date.now();
    fs.mkdirSync(path.join(server.projectDir, '.swarm'), { recursive: true });
    fs.writeFileSync(
      path.join(server.projectDir, '.swarm', 'events.jsonl'),
      [
        { timestamp: new Date(denialAt - 5_000).toISOString(), event: 'knowledge_application_gate_warn', tool: 'task', agent: 'architect', sessionID: 'ses_other', unacknowledged_critical_ids: ['KD-0002'] },
        { timestamp: new Date(denialAt).toISOString(), event: 'knowledge_application_gate_deny', tool: 'knowledge_probe', agent: 'build', sessionID: session.id, entry_ids: [GATE_DIRECTIVE_ID], denial_count: 1, max_gate_denials: 3 },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n') + '\n',
    );

    const once = cli(['--opencode', server.url, '--password', 'pw-cli', '--project', server.projectDir, '--json']);
    expect(await once.exited).toBe(0);
    const lines = once.lines();
    const denial = lines.find((l) => l.sessionID === session.id);
    expect(denial).toMatchObject({
      source: 'opencode',
      sources: ['opencode', 'events'],
      kind: 'denial',
      tool: 'knowledge_probe',
      gate: 'KNOWLEDGE_ENFORCE_GATE_DENY',
      directiveIds: [GATE_DIRECTIVE_ID],
    });
    expect(denial?.callID).toMatch(/^call_fake_\d+$/);
    expect(denial?.message).toMatch(/^KNOWLEDGE_ENFORCE_GATE_DENY: knowledge_probe blocked/);
    expect(lines.filter((l) => l.sessionID === session.id)).toHaveLength(1); // the allowed bash call is not there
    expect(lines.find((l) => l.source === 'events')).toMatchObject({ kind: 'warn', sessionID: 'ses_other', directiveIds: ['KD-0002'] });
    expect(lines.map((l) => l.time)).toEqual([...lines.map((l) => l.time)].sort());

    const wrong = cli(['--opencode', server.url, '--password', 'nope', '--json']);
    expect(await wrong.exited).toBe(1);
    expect(wrong.stderr()).toContain('unauthorised');

    const follow = cli(['--opencode', server.url, '--password', 'pw-cli', '--follow', '--json']);
    try {
      await waitFor(() => follow.lines().some((l) => l.sessionID === session.id), 'history printed', 60_000);
      await server.prompt(session.id, 'CALL bash {"command":"echo GATE_ME","description":"followed"}');
      const bash = await waitFor(() => follow.lines().find((l) => l.tool === 'bash'), 'followed denial', 60_000);
      expect(bash).toMatchObject({ sessionID: session.id, source: 'opencode', directiveIds: [GATE_DIRECTIVE_ID] });
    } finally {
      follow.child.kill('SIGTERM');
      expect(await follow.exited).toBe(0);
    }
  }, 240_000);
});
