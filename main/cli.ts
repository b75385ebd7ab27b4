/**
 * `swarm-console <command>`: each command lives in main/cli/<command>.ts and returns its exit code.
 * Only `open` touches Electron, and only by spawning its binary.
 */
const COMMANDS = {
  open: () => import('./cli/open'),
  serve: () => import('./cli/serve'),
  inspect: () => import('./cli/inspect'),
  verify: () => import('./cli/verify'),
  denials: () => import('./cli/denials'),
  audit: () => import('./cli/audit'),
  // Human-only commands exist only in the console window; their names answer exit 2 and say so.
  'hive-quarantine': () => import('./cli/human-only').then((m) => m.refusal('hive-quarantine')),
  quarantine: () => import('./cli/human-only').then((m) => m.refusal('quarantine')),
  restore: () => import('./cli/human-only').then((m) => m.refusal('restore')),
  promote: () => import('./cli/human-only').then((m) => m.refusal('promote')),
  'skill-apply': () => import('./cli/human-only').then((m) => m.refusal('skill-apply')),
} as const satisfies Record<string, () => Promise<{ run(argv: string[]): Promise<number> }>>;

type CommandName = keyof typeof COMMANDS;

export const USAGE = `swarm-console — the opencode-swarm knowledge console

Usage:
  swarm-console [open] [--project DIR] [--hive DIR]      desktop app (falls back to the browser host)
  swarm-console serve [--project DIR] [--hive DIR] [--port N] [--user-data DIR]
                                                          console on http://127.0.0.1 only, with a per-launch token
  swarm-console inspect --project DIR [--hive DIR] [--json]
                                                          read-only summary of every store
  swarm-console verify --project DIR [--json]             check the V2 receipt journal (exit 3 when corrupt)
  swarm-console denials --opencode URL [--password P] [--project DIR] [--follow] [--json]
                                                          gate denials from a running opencode server
  swarm-console audit [--json] [--user-data DIR]          the console's audit log of human-only commands (exit 3 when its chain is broken)

Hive quarantine, quarantine, restore, promote and skill-apply are human-only: they run only from the console window.

Without --project the console opens a generated demo workspace.`;

export async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === '--help' || first === '-h' || first === 'help') {
    console.log(USAGE);
    return 0;
  }
  const isCommand = (name: string | undefined): name is CommandName => !!name && Object.hasOwn(COMMANDS, name);
  const [name, args] = isCommand(first) ? [first, rest] : ['open' as const, argv];
  if (first && !first.startsWith('-') && !isCommand(first)) {
    console.error(`swarm-console: unknown command "${first}"\n\n${USAGE}`);
    return 2;
  }
  const command = await COMMANDS[name]();
  return command.run(args);
}
