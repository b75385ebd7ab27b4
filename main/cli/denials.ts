/**
 * `swarm-console denials [--opencode URL [--password P]] [--project DIR] [--follow] [--json]` (at least one of the two)
 *
 * Prints the merged feed of gate denials (from a running `opencode serve`, its whole stored history
 * through /sync/history) and gate events (from `<DIR>/.swarm/events.jsonl`), oldest first, one line
 * each. With --project, OpenCode items are limited to sessions in that folder. With --follow it then
 * keeps printing new items until interrupted. Read-only: the feed lives in memory, nothing is
 * written anywhere, and the server is only read from.
 *
 * --json prints one object per line:
 *   {"time": ISO, "source": "opencode"|"events", "kind": "denial"|"block"|"warn"|"clear", "sessionID", "tool",
 *    "callID", "gate", "directiveIds": [], "message", "agent", "directory", "messageID", "code", "replayed", "sources": []}
 *
 * Exit codes: 0 done; 1 the server could not be read (unreachable or unauthorised); 2 bad arguments
 * (including a URL whose port fetch refuses to use).
 * The password may also come from OPENCODE_SERVER_PASSWORD.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { FeedItem, ServerInfo } from '../../shared/contract/live';
import { Bridge } from '../core/bridge/bridge';
import { blockedPortMessage } from '../core/bridge/opencode-api';
import { maskCredentials } from '../core/platform/util/credentials';
import { terminalJson, terminalLine } from '../core/platform/util/terminal-text';

const SYNC_TIMEOUT_MS = 20_000;
const USAGE = 'usage: swarm-console denials [--opencode URL [--password P]] [--project DIR] [--follow] [--json]  (without --opencode: DIR/.swarm/events.jsonl only)';

export function toJsonLine(item: FeedItem): string {
  return JSON.stringify({
    time: new Date(item.time).toISOString(),
    source: item.source,
    kind: item.kind,
    sessionID: item.sessionID,
    tool: item.tool,
    callID: item.callID,
    gate: item.gate,
    directiveIds: item.directiveIds,
    message: item.message,
    agent: item.agent,
    directory: item.directory,
    messageID: item.messageID,
    code: item.code,
    replayed: item.replayed,
    sources: item.sources,
  });
}

export function toTextLine(item: FeedItem): string {
  const ids = item.directiveIds.length ? `[${item.directiveIds.join(', ')}]` : '[]';
  const message = item.message.replace(/\s+/g, ' ');
  return [new Date(item.time).toISOString(), item.kind.padEnd(6), item.source.padEnd(8), item.gate, item.tool ?? '-', item.sessionID ?? '-', item.callID ?? '-', ids, message.length > 200 ? `${message.slice(0, 199)}…` : message].join('  ');
}

function describeState(server: ServerInfo): string {
  const s = server.state;
  if ('reason' in s) return `${s.kind}: ${s.reason}`;
  return s.kind;
}

export async function run(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        opencode: { type: 'string' },
        password: { type: 'string' },
        project: { type: 'string' },
        follow: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    console.error(`swarm-console denials: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (!values.opencode && !values.project) {
    console.error(`swarm-console denials: give --opencode URL and/or --project DIR\n${USAGE}`);
    return 2;
  }
  const project = values.project ? path.resolve(values.project) : null;
  if (project && !fs.statSync(project, { throwIfNoEntry: false })?.isDirectory()) {
    console.error(`swarm-console denials: project folder does not exist: ${project}`);
    return 2;
  }

  const bridge = new Bridge({ dbFile: ':memory:', persistSeqs: false });
  const printed = new Set<string>();
  let live = false;
  const inScope = (item: FeedItem) =>
    !project || item.source === 'events' || item.directory === project || Boolean(item.directory?.startsWith(`${project}${path.sep}`));
  const print = (item: FeedItem) => {
    if (printed.has(item.id) || !inScope(item)) return;
    printed.add(item.id);
    // Credentials in store text are masked on the way out, as everywhere (platform/util/credentials.ts).
    process.stdout.write(`${values.json ? terminalJson(maskCredentials(toJsonLine(item))) : terminalLine(maskCredentials(toTextLine(item)))}\n`);
  };
  bridge.subscribe((event) => {
    if (!live) return;
    if (event.type === 'items') for (const item of [...event.items].sort((a, b) => a.time - b.time)) print(item);
    if (event.type === 'server' && !values.json) console.error(terminalLine(`# ${event.server.label}: ${describeState(event.server)}`));
  });

  let serverProblem: string | null = null;
  try {
    if (values.opencode) {
      try {
        bridge.connect({ url: values.opencode, password: values.password ?? process.env.OPENCODE_SERVER_PASSWORD });
      } catch (error) {
        console.error(`swarm-console denials: ${(error as Error).message}`);
        return 2;
      }
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([bridge.whenSynced(), new Promise<void>((resolve) => (timer = setTimeout(resolve, SYNC_TIMEOUT_MS)))]);
      clearTimeout(timer);
      const [server] = bridge.servers();
      if (server && server.state.kind !== 'connected' && server.state.kind !== 'silent') {
        serverProblem = `${server.url}: ${describeState(server)}`;
        console.error(terminalLine(`swarm-console denials: ${serverProblem}`));
        if ('reason' in server.state && server.state.reason === blockedPortMessage(new URL(server.url).port)) return 2;
      }
    }
    if (project) await bridge.followProject(project, values.follow);

    for (let page = bridge.store.query({}, undefined, 500), all: FeedItem[] = []; ; page = bridge.store.query({}, page.nextCursor ?? undefined, 500)) {
      all.push(...page.items);
      if (!page.nextCursor) {
        for (const item of all.reverse()) print(item);
        break;
      }
    }
    if (!values.follow) return serverProblem ? 1 : 0;

    live = true;
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    return 0;
  } finally {
    await bridge.dispose();
  }
}
