/**
 * `swarm-console history --project DIR [--hive DIR] [--since MOMENT] [--until MOMENT] [--entry ID] [--json] [--user-data DIR]`
 *
 * Read-only over the workspace's history database (`<user-data>/workspaces/<key>/history.db`): it
 * never creates, records into or repairs it. Without --entry: what changed between two moments
 * (default: since you last looked, until now). With --entry: that entry's timeline. Store text is
 * escaped for the terminal and credentials are masked in both outputs.
 *
 * Exit codes: 0 done · 1 no history yet, or it cannot be read · 2 usage (a bad moment included).
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ConsoleError } from '../../shared/contract';
import { Moment, type ChangesOutput, type TimelineOutput } from '../../shared/contract/history';
import { HistoryQueries } from '../core/history/history-queries';
import { consoleQuarantines } from '../core/history/history-service';
import { HISTORY_FILE_NAME } from '../core/history/history-db';
import { loadSwarmConfig } from '../core/platform/config/load-config';
import { resolvePluginDataDir, currentPlatformEnv } from '../core/platform/paths/platform-data-dir';
import { resolveWorkspacePaths } from '../core/platform/paths/workspace-paths';
import { maskDeep } from '../core/platform/util/credentials';
import { terminalJson, terminalLine } from '../core/platform/util/terminal-text';
import { Workspace } from '../core/workspace/workspace';
import { parseWorkspaceCommand, toWorkspaceArgs } from './workspace-args';

const out = (text: string) => process.stdout.write(`${terminalLine(text)}\n`);
const SIGN = { added: '+', removed: '-', changed: '~' } as const;

function printChanges(result: ChangesOutput): void {
  const { counts } = result;
  out(`Since ${result.since.moment} (${result.since.at}) until ${result.until.moment} (${result.until.at}): ${counts.added} added, ${counts.removed} removed, ${counts.changed} changed`);
  if (result.historyBegan) out(`History begins ${result.historyBegan}.`);
  for (const gap of result.gaps) out(`  ${gap.text}`);
  for (const row of result.rows) {
    const where = `${row.place.kind} ${row.place.file}`;
    const what = row.change === 'changed' ? row.fields.map((f) => `${f.field} ${f.before ?? '(none)'} → ${f.after ?? '(none)'}`).join('; ') : (row.lesson ?? '');
    out(`${SIGN[row.change]} ${row.change.padEnd(7)} ${row.id}  [${where}]  ${row.at}  ${what}`);
    if (row.reason) out(`    ${row.reason.text}${row.reason.inference ? ' (inferred)' : ''}`);
    if (row.unobserved) out(`    ${row.unobserved.text}`);
  }
}

function printTimeline(result: TimelineOutput): void {
  out(`Entry ${result.id}: ${result.versions.length} version${result.versions.length === 1 ? '' : 's'}`);
  for (const v of result.versions) {
    out(`${v.from} → ${v.to ?? 'now'}  ${v.kind} ${v.file}  (${v.origin})  sha256 ${v.sha256.slice(0, 12)}`);
    if (v.unobserved) out(`    ${v.unobserved.text}`);
    if (v.thinned) out(`    ${v.thinned.text}`);
    for (const f of v.fields) out(`    ${f.field}: ${f.before ?? '(none)'} → ${f.after ?? '(none)'}`);
    if (v.end) out(`    ended: ${v.end.text}${v.end.inference ? ' (inferred)' : ''}`);
  }
}

export async function run(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseWorkspaceCommand(argv, { since: { type: 'string' }, until: { type: 'string' }, entry: { type: 'string' }, json: { type: 'boolean' } }));
    for (const moment of [values.since, values.until]) if (moment !== undefined && !Moment.safeParse(moment).success) throw new Error(`not a moment: ${moment} (an ISO date-time, now, last-looked or phase:N)`);
  } catch (error) {
    console.error(terminalLine(`swarm-console history: ${(error as Error).message}`));
    return 2;
  }
  const args = toWorkspaceArgs(values);
  if (!args.project || !fs.existsSync(args.project)) {
    console.error(terminalLine(`swarm-console history: --project DIR is required and must exist${args.project ? ` (${args.project})` : ''}`));
    return 2;
  }
  const hive = args.hive ?? resolvePluginDataDir(currentPlatformEnv());
  const paths = resolveWorkspacePaths(args.project, hive, args.hive ? 'flag' : 'env', false);
  const file = path.join(Workspace.cacheDirPath(args.userDataDir, paths), HISTORY_FILE_NAME);
  if (!fs.existsSync(file)) {
    console.error(terminalLine(`swarm-console history: no history for ${paths.projectDir} yet (${file} does not exist): open it in the console, or run \`swarm-console record\``));
    return 1;
  }
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 2000');
    db.prepare('SELECT count(*) FROM sightings').get();
  } catch (error) {
    console.error(terminalLine(`swarm-console history: ${file} cannot be read (${(error as Error).message}); the console sets it aside the next time it opens this project`));
    return 1;
  }
  // Read-only here: a history an earlier console wrote is upgraded (span index, thinned spans) by the
  // next console or recorder that opens it.
  if (!db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sightings_span'").get()) {
    console.error(terminalLine(`swarm-console history: ${file} was written by an earlier console; open the project in the console or run \`swarm-console record\` once to upgrade it`));
    db.close();
    return 1;
  }
  try {
    const knowledge = loadSwarmConfig({ projectDir: paths.projectDir }).values.knowledge ?? {};
    const lastLooked = (db.prepare("SELECT at FROM moments WHERE name = 'last-looked'").get() as { at: number } | undefined)?.at ?? null;
    const queries = new HistoryQueries({
      db,
      lastLooked,
      caps: { swarm: Number(knowledge.swarm_max_entries ?? 100), hive: Number(knowledge.hive_max_entries ?? 200) },
      quarantines: () => consoleQuarantines(args.userDataDir),
      status: { file, setAside: null },
    });
    const result = maskDeep(values.entry !== undefined ? queries.timeline(values.entry) : queries.changes(values.since ?? 'last-looked', values.until ?? 'now'));
    if (values.json) process.stdout.write(`${terminalJson(JSON.stringify(result, null, 2))}\n`);
    else if ('versions' in result) printTimeline(result);
    else printChanges(result);
    return 0;
  } catch (error) {
    console.error(terminalLine(`swarm-console history: ${(error as Error).message}`));
    return error instanceof ConsoleError && error.code !== 'failed' ? 2 : 1;
  } finally {
    db.close();
  }
}
