import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { findElectronBinary } from './electron-binary';
import { serve } from './serve';
import { parsePortOption } from './listen-port';
import { builtRendererDir, parseWorkspaceCommand, repoRoot, toWorkspaceArgs } from './workspace-args';

/** `npm start` runs this command through bin/start.mjs, which says so in SWARM_CONSOLE_COMMAND. */
const launchCommand = (): string => (process.env.SWARM_CONSOLE_COMMAND === 'npm start' ? 'npm start' : 'swarm-console');

/** `swarm-console open` (the default): the desktop app, or the browser host when Electron cannot start. */
export async function run(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseWorkspaceCommand(argv, { port: { type: 'string' } });
  } catch (error) {
    console.error(`swarm-console: ${(error as Error).message}`);
    return 2;
  }
  const args = toWorkspaceArgs(parsed.values);
  let port: number | undefined;
  try {
    port = parsePortOption(parsed.values.port);
  } catch (error) {
    console.error(`swarm-console: ${(error as Error).message}`);
    return 2;
  }
  const rendererDir = builtRendererDir();
  if (!fs.existsSync(path.join(rendererDir, 'index.html'))) {
    console.error('swarm-console: the app is not built yet; run `npm run build` (or `npm start`, which builds it).');
    return 1;
  }
  const electron = findElectronBinary();
  const mainEntry = path.join(repoRoot(), 'out', 'main', 'index.js');
  const reason = !electron.ok ? electron.reason : !fs.existsSync(mainEntry) ? 'the desktop main process is not built' : null;
  if (reason !== null || !electron.ok) {
    console.log(`Electron cannot start here: ${reason}. Starting the browser host instead.`);
    return serve({ ...args, port, rendererDir, command: launchCommand() });
  }
  const forwarded = ['--project', args.project ?? '', '--hive', args.hive ?? '', '--user-data', args.userDataDir];
  const child = spawn(electron.binary, [repoRoot(), '--', ...forwarded], { stdio: 'inherit' });
  const startedAt = Date.now();
  const code = await new Promise<number>((resolve) => child.on('exit', (exitCode) => resolve(exitCode ?? 1)));
  if (code !== 0 && Date.now() - startedAt < 5000) {
    console.log(`Electron exited at start-up (code ${code}). Starting the browser host instead.`);
    return serve({ ...args, port, rendererDir, command: launchCommand() });
  }
  return code;
}
