import { VERIFY_USAGE } from './verify';

/** `swarm-console <command> --help`: each command's own usage, options and exit codes. */
export const COMMAND_HELP = {
  open: `Usage: swarm-console [open] [--project DIR] [--hive DIR] [--user-data DIR] [--port N]

Opens the desktop app. Where Electron cannot start (no binary, no display) it says why in one line
and serves the same console on loopback instead, as \`serve\` does.

  --project DIR     the project folder (the one holding .swarm/); omitted: the generated demo workspace
  --hive DIR        the plugin's data folder (holds shared-learnings.jsonl and links/); omitted:
                    resolved from the environment exactly as the plugin does
  --user-data DIR   the console's own state (index caches, demo workspace, recent projects)
  --port N          the browser host's port when it falls back to it (default 37251, or a free one
                    when that is taken; 0: any free port)`,

  serve: `Usage: swarm-console serve [--project DIR] [--hive DIR] [--port N] [--user-data DIR]

Serves the console on http://127.0.0.1 only, with a per-launch token in the URL it prints, until
Ctrl-C. Needs the built renderer (\`npm run build\`).

  --project DIR     the project folder (the one holding .swarm/); omitted: the generated demo workspace
  --hive DIR        the plugin's data folder (holds shared-learnings.jsonl and links/); omitted:
                    resolved from the environment exactly as the plugin does
  --port N          0 to 65535 (in use: exit 2); default 37251, or a free one when that is taken
                    (said); 0: any free port
  --user-data DIR   the console's own state (index caches, demo workspace, recent projects)

Exit codes: 0 stopped · 1 could not start · 2 usage`,

  inspect: `Usage: swarm-console inspect --project DIR [--hive DIR] [--json] [--max-defects N]

A read-only report of every store file found (path, lines, records, defects with file:line and
reason), the link pointer, and whether the hive folder is the plugin's data folder. Writes nothing.

  --project DIR     the project folder (the one holding .swarm/); required
  --hive DIR        the plugin's data folder; omitted: resolved from the environment as the plugin does
  --json            one stable JSON object for scripts instead of the table
  --max-defects N   list at most N defects per file (default 20; 0 lists none, counts stay exact)

Exit codes: 0 everything found was read · 1 a store path cannot be read · 2 usage or no project folder`,

  verify: VERIFY_USAGE,

  denials: `Usage: swarm-console denials [--opencode URL [--password P]] [--project DIR] [--follow] [--json]

Gate denials and gate events, oldest first, one line each. Give --opencode, --project, or both:
  --opencode URL    a running \`opencode serve\`: its stored denials (/sync/history), then live ones
  --password P      that server's password (or OPENCODE_SERVER_PASSWORD)
  --project DIR     adds the gate events of DIR/.swarm/events.jsonl (the released plugin's gate
                    warnings) and limits the server's denials to sessions in DIR. Without --opencode
                    only these events are printed: no server is contacted.
  --follow          keep printing new items until Ctrl-C
  --json            one JSON object per line

Exit codes: 0 done · 1 the server could not be read · 2 usage`,

  audit: `Usage: swarm-console audit [--json] [--user-data DIR]

Lists the console's own audit log of human-only commands (every preview, commit, refusal and
rollback), read-only, and checks its hash chain.
  --json            the records and the chain check as one JSON document
  --user-data DIR   the console's user-data folder (default: as the console resolves it)

Exit codes: 0 chain intact · 2 usage · 3 chain broken`,

  history: `Usage: swarm-console history --project DIR [--hive DIR] [--since MOMENT] [--until MOMENT] [--entry ID] [--json] [--user-data DIR]

What changed in the project's and hive's knowledge stores between two moments: entries added,
removed (with the reason the stores give, or the console's inference, marked "inferred") and
changed (field by field), and the stretches when no console or recorder was watching. Read-only
over the console's history database; it never records. History exists once the console or
\`swarm-console record\` has had the project open.

  --project DIR     the project folder (the one holding .swarm/); required
  --hive DIR        the plugin's data folder; omitted: resolved from the environment as the plugin does
  --since MOMENT    default last-looked (when the console last had this project open)
  --until MOMENT    default now
  --entry ID        instead: that entry's timeline (every version, where it lived, why each ended)
  --json            the result as one JSON document
  --user-data DIR   the console's user-data folder (default: as the console resolves it)

A MOMENT is an ISO date-time (2026-07-01T09:12:00Z), now, last-looked, or phase:N (when the
plugin completed phase N, from its outcome and curator_compliance events).

Exit codes: 0 done · 1 no history yet, or it cannot be read · 2 usage or an unknown moment`,

  record: `Usage: swarm-console record --project DIR [--hive DIR] [--user-data DIR]

Keeps the project's knowledge history while no console window is open: follows every store
write, headless (no window, no port), and prints one line per change batch. SIGTERM or Ctrl-C
stops it cleanly. It may run beside the desktop app or another recorder on the same project.

  --project DIR     the project folder (the one holding .swarm/); required
  --hive DIR        the plugin's data folder; omitted: resolved from the environment as the plugin does
  --user-data DIR   the console's user-data folder (default: as the console resolves it)

Exit codes: 0 stopped by a signal · 1 could not start · 2 usage`,
} as const;

/** `--help`/`-h` anywhere before a `--` asks for help (a value never starts with `-` in these commands). */
export function wantsHelp(args: string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}
