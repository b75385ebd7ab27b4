/**
 * `swarm-console <command>`: each command lives in main/cli/<command>.ts and returns its exit code.
 * Only `open` touches Electron, and only by spawning its binary.
 */
import { COMMAND_HELP, wantsHelp } from './cli/help';

const COMMANDS = {
  open: () => import('./cli/open'),
  serve: () => import('./cli/serve'),
  inspect: () => import('./cli/inspect'),
  verify: () => import('./cli/verify'),
  denials: () => import('./cli/denials'),
  audit: () => import('./cli/audit'),
  history: () => import('./cli/history'),
  record: () => import('./cli/record'),
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
  swarm-console inspect --project DIR [--hive DIR] [--json] [--max-defects N]
                                                          read-only summary of every store
  swarm-console verify --project DIR [--json]             check the V2 receipt journal (exit 3 when corrupt)
  swarm-console denials [--opencode URL [--password P]] [--project DIR] [--follow] [--json]
                                                          gate denials from a running opencode server
                                                          and/or gate events from DIR/.swarm/events.jsonl
  swarm-console audit [--json] [--user-data DIR]          the console's audit log of human-only commands (exit 3 when its chain is broken)
  swarm-console history --project DIR [--hive DIR] [--since MOMENT] [--until MOMENT] [--entry ID] [--json]
                                                          what changed in the stores between two moments, or one entry's timeline
  swarm-console record --project DIR [--hive DIR]         keep history headless while no console is open (one line per change batch)
  swarm-console <command> --help                          that command's options and exit codes

Hive quarantine, quarantine, restore, promote and skill-apply are human-only: they run only from the console window.

Without --project the console opens a generated demo workspace.`;

/**
 * A reader that stops early (`inspect … | head`) closes the pipe: leave quietly, as Unix tools do,
 * instead of dying on an unhandled EPIPE with a stack trace. Nothing is lost: the CLI only reads.
 */
function leaveQuietlyOnBrokenPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(0);
      throw error;
    });
  }
}

export async function main(argv: string[]): Promise<number> {
  leaveQuietlyOnBrokenPipe();
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
  // Human-only names have no help of their own: their refusal is the answer.
  if (wantsHelp(args) && Object.hasOwn(COMMAND_HELP, name)) {
    console.log(COMMAND_HELP[name as keyof typeof COMMAND_HELP]);
    return 0;
  }
  const command = await COMMANDS[name]();
  return command.run(args);
}
