import fs from 'node:fs';
import { createConsoleCore } from '../core/console-core';
import { checkHiveFolder } from '../core/platform/paths/hive-folder';
import { startHttpHost, type HttpHost } from '../hosts/http-host';
import { openCodeTerminal } from '../hosts/code-terminal';
import { openTerminal } from '../hosts/terminal';
import { terminalConfirmation } from '../hosts/terminal-confirmation';
import { processContext } from '../hosts/terminal-process-context';
import { terminalLine } from '../core/platform/util/terminal-text';
import { builtRendererDir, packageVersion, parseWorkspaceCommand, toWorkspaceArgs } from './workspace-args';
import { demoWorkspaces } from '../demo/week/demo-workspaces';
import { choosePort, parsePortOption, portRefusal } from './listen-port';

const SHUTDOWN_GRACE_MS = 5_000;

/** `swarm-console serve`: the console over loopback HTTP, until SIGINT/SIGTERM. */
export async function run(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseWorkspaceCommand(argv, { port: { type: 'string' } });
  } catch (error) {
    console.error(terminalLine(`swarm-console serve: ${(error as Error).message}`));
    return 2;
  }
  const args = toWorkspaceArgs(parsed.values);
  let port: number | undefined;
  try {
    port = parsePortOption(parsed.values.port);
  } catch (error) {
    console.error(`swarm-console serve: ${(error as Error).message}`);
    return 2;
  }
  const rendererDir = builtRendererDir();
  if (!fs.existsSync(`${rendererDir}/index.html`)) {
    console.error('swarm-console serve: the renderer is not built yet; run `npm run build` first.');
    return 1;
  }
  return serve({ ...args, port, rendererDir, command: 'swarm-console serve' });
}

export interface ServeOptions {
  project: string | null;
  hive: string | undefined;
  userDataDir: string;
  /** undefined: DEFAULT_PORT, or a free one when it is taken; 0: any free port. */
  port: number | undefined;
  rendererDir: string;
  /** The command the person ran (`npm start`, `swarm-console serve`), named on the sign-in page. */
  command: string;
}

export async function serve(options: ServeOptions): Promise<number> {
  // The port first: a refused start must not have generated the demo workspace or an index.
  const choice = await choosePort(options.port);
  if (!choice.ok) {
    console.error(portRefusal(choice.port, choice.code));
    return 2;
  }
  if (choice.note) console.log(terminalLine(`swarm-console: ${choice.note}`));
  let core;
  try {
    core = await createConsoleCore({ userDataDir: options.userDataDir, host: 'browser', version: packageVersion(), demo: demoWorkspaces }, { project: options.project, hive: options.hive });
  } catch (error) {
    console.error(terminalLine(`swarm-console serve: ${(error as Error).message}`));
    return 1;
  }
  // Background work (index passes, model warm-ups, history recording) runs from timers: one that fails must not end
  // the console an operator keeps open (Electron's main process only logs these too). Said on stderr, escaped; the
  // e2e fixture fails any test whose host says it.
  process.on('unhandledRejection', (reason) =>
    console.error(terminalLine(`swarm-console serve: unhandled rejection in background work (the console goes on): ${(reason as Error)?.stack ?? String(reason)}`)),
  );
  const terminal = openTerminal();
  // Every line goes through the terminal escaping: paths, hive messages and titles may hold store bytes.
  const say = (line: string) => process.stdout.write(`${terminalLine(line)}\n`);
  // Human-only commands need a person at this terminal (stdin a TTY, and the codes printed on that
  // same terminal: stdout, or /dev/tty when stdout is piped), and no agent's shell.
  const context = processContext();
  const codeTerminal = openCodeTerminal();
  const printCode = codeTerminal.write;
  const confirmation = printCode
    ? terminalConfirmation({ interactive: true, print: printCode, process: context })
    : terminalConfirmation({ interactive: false, print: say, process: context });
  let host: HttpHost;
  try {
    host = await startHttpHost({
      dispatcher: core.dispatcher.forCaller({ host: 'browser', confirmation }),
      rendererDir: options.rendererDir,
      port: choice.port,
      launch: { command: options.command, interactive: terminal.interactive },
    });
  } catch (error) {
    await core.dispose();
    codeTerminal.close();
    // Taken between the check above and this listen.
    const code = (error as NodeJS.ErrnoException).code;
    if (code) console.error(portRefusal(choice.port, code));
    else console.error(terminalLine(`swarm-console: cannot listen on 127.0.0.1:${choice.port}: ${(error as Error).message}`));
    return 2;
  }
  const workspace = core.context.workspaces.current.paths;
  say(`Swarm Knowledge Console (browser host) — project ${workspace.projectDir}${workspace.isDemo ? ' (demo)' : ''}, hive ${workspace.hiveDir}`);
  const hiveCheck = checkHiveFolder(workspace.hiveDir);
  if (hiveCheck.message) say(`Hive: ${hiveCheck.message}${hiveCheck.suggestion ? ` (--hive ${hiveCheck.suggestion})` : ''}`);
  // Said at start-up, not first when a button is pressed: whether a person can confirm here, and why not.
  const availability = confirmation.availability();
  if (availability.enabled) say(`Human-only commands: confirmed by a one-time code printed on ${codeTerminal.kind === 'tty' ? 'this terminal (/dev/tty; never into the piped output)' : 'this terminal'}.`);
  else say(`Human-only commands are off: ${availability.reason ?? 'no confirmation channel'}${context.agentMarkers.length > 0 && printCode ? ` (found: ${context.agentMarkers.join(', ')})` : ''}`);
  say(`Open: ${host.launchUrl}`);
  if (terminal.interactive) {
    say('Each launch URL opens the console once. Press Enter here for a new one.');
    // Only an empty line: other typed text is left for other terminal prompts (e.g. confirmation codes).
    terminal.onLine((line) => {
      if (line === '') say(`Open: ${host.newLaunchUrl()}`);
    });
  }
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  // A second signal, or a dispose that hangs (a watcher or an ingest that will not stop), must
  // not keep the process alive: the stores are only read, so nothing is lost by leaving.
  const forceExit = setTimeout(() => process.exit(0), SHUTDOWN_GRACE_MS);
  forceExit.unref();
  process.once('SIGINT', () => process.exit(130));
  process.once('SIGTERM', () => process.exit(143));
  terminal.close();
  codeTerminal.close();
  await host.close();
  await core.dispose();
  return 0;
}
