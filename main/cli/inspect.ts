/**
 * `swarm-console inspect --project DIR [--hive DIR] [--json] [--max-defects N]`
 *
 * A read-only report of every store file found: path, line count, records, defects (first N with
 * file:line and reason). It opens files for reading only and writes nothing anywhere.
 *
 * Exit codes: 0 everything found was read; 1 a store path exists but cannot be read (e.g. a
 * directory where a file should be, no permission); 2 bad arguments or no project folder.
 *
 * `--json` is a stable interface for scripts:
 *   {"project": DIR, "hive": DIR, "hiveCheck": {"state": "hive|parent|empty|missing|not_a_folder", "message", "suggestion"},
 *    "link": {...}|null,
 *    "stores": [{"store": ".swarm/knowledge.jsonl", "key": "knowledge", "tier": "swarm|hive|link", "path": ABS,
 *                "status": "ok|not_a_file|unreadable", "message": null|"...", "orphaned": false,
 *                "lines": N, "records": N, "defectCount": N, "defects": [{"line": N, "offset": N, "kind": "...", "reason": "..."}],
 *                "archivedAt": null|ISO (set when the file is a `.imported` archive of a store the plugin moved into swarm.db)}],
 *    "upgrade": {"swarmDb": null|{"state": "ok|busy|unreadable", "userVersion", "migrations", "storeTables": [{"name", "rows", "storeKey"}], ...},
 *                "archives": [...], "notices": ["this project's plugin keeps … in swarm.db since …"]}}
 *
 * Credentials in store text (URL passwords, API keys, `password=` pairs) are masked in both outputs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { checkHiveFolder, type HiveFolderCheck } from '../core/platform/paths/hive-folder';
import { resolvePluginDataDir } from '../core/platform/paths/platform-data-dir';
import { storeDef } from '../core/stores/catalog';
import { discoverFiles, locateStores, orphanedFiles, type StoreFile } from '../core/stores/locate';
import { readStoreFile } from '../core/stores/read-store-file';
import { workspaceRoots } from '../core/stores/containment';
import { terminalJson, terminalLine } from '../core/platform/util/terminal-text';
import { resolveWorkspacePaths } from '../core/platform/paths/workspace-paths';
import { maskCredentials } from '../core/platform/util/credentials';
import { describePluginUpgrade } from '../core/stores/plugin-upgrade';
import { IMPORTED_SUFFIX } from '../core/stores/imported';
import type { PluginUpgrade } from '../../shared/contract/stores';

export interface InspectedStore {
  store: string;
  key: string;
  tier: 'swarm' | 'hive' | 'link';
  path: string;
  status: 'ok' | 'not_a_file' | 'unreadable' | 'missing';
  message: string | null;
  orphaned: boolean;
  lines: number;
  records: number;
  defectCount: number;
  defects: { line: number; offset: number; kind: string; reason: string }[];
  /** Set when this file is the `.imported` archive the plugin left after moving the store into swarm.db. */
  archivedAt: string | null;
}

export interface InspectReport {
  project: string;
  hive: string;
  /** Whether `hive` is the plugin's data folder ("no hive here" and the folder to use instead when not). */
  hiveCheck: HiveFolderCheck;
  link: { linkId: string | null; dir: string | null; problem: string | null } | null;
  notes: string[];
  /** Folders that exist but cannot be listed (their stores could not be looked at). */
  problems: string[];
  stores: InspectedStore[];
  /** A newer plugin's swarm.db and the stores it imported (see stores/plugin-upgrade.ts). */
  upgrade: PluginUpgrade;
}

const USAGE = 'usage: swarm-console inspect --project DIR [--hive DIR] [--json] [--max-defects N]';

function archiveTime(file: string): string | null {
  try {
    return fs.statSync(file).mtime.toISOString();
  } catch {
    return null;
  }
}

async function inspectFile(file: StoreFile, maxDefects: number, confineTo: readonly string[]): Promise<InspectedStore> {
  const def = storeDef(file.orphaned ? file.storeKey.replace(/^orphaned:/, '').replace(/\.jsonl?$/, '') : file.storeKey);
  const archivedAt = file.path.endsWith(IMPORTED_SUFFIX) ? archiveTime(file.path) : null;
  const base = { store: file.name, key: file.storeKey, tier: file.tier, path: file.path, orphaned: file.orphaned, archivedAt };
  if (!def) return { ...base, status: 'ok', message: null, lines: 0, records: 0, defectCount: 0, defects: [] };
  const result = await readStoreFile(def, file.path, { maxCollectedDefects: maxDefects, confineTo });
  const notes = [archivedAt ? `archived by the plugin on ${archivedAt}` : null, file.orphaned ? 'orphaned: the plugin ignores this local file while the worktree is linked' : null, file.symlinkTarget ? `symlink to ${file.symlinkTarget}` : null];
  return {
    ...base,
    status: result.status,
    message: result.message ?? (notes.filter(Boolean).join('; ') || null),
    lines: result.lines,
    records: result.records,
    defectCount: result.defectCount,
    defects: result.defects.map((d) => ({ line: d.line, offset: d.offset, kind: d.kind, reason: d.reason })),
  };
}

export async function inspectWorkspace(projectDir: string, hiveDir: string, maxDefects = 20): Promise<InspectReport> {
  const paths = resolveWorkspacePaths(projectDir, hiveDir, 'flag', false);
  const notes: string[] = [];
  if (!fs.existsSync(paths.swarmDir)) notes.push(`${paths.swarmDir} does not exist: no swarm-tier stores in this project`);
  const hiveCheck = checkHiveFolder(paths.hiveDir);
  if (hiveCheck.message) notes.push(hiveCheck.suggestion ? `${hiveCheck.message} (--hive ${hiveCheck.suggestion})` : hiveCheck.message);
  if (paths.link.problem) notes.push(`.swarm/link.json: ${paths.link.problem}`);
  const problems: string[] = [];
  for (const dir of [paths.swarmDir, paths.hiveDir, paths.link.dir]) {
    if (!dir) continue;
    try {
      fs.readdirSync(dir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') problems.push(`${dir} cannot be listed (${code}): its stores were not read`);
    }
  }
  const locations = locateStores(paths);
  const upgrade = describePluginUpgrade(paths, locations);
  notes.push(...upgrade.notices);
  const files = [...locations.flatMap(discoverFiles), ...orphanedFiles(paths)];
  const stores: InspectedStore[] = [];
  for (const file of files) stores.push(await inspectFile(file, maxDefects, workspaceRoots(paths)));
  return {
    project: paths.projectDir,
    hive: paths.hiveDir,
    hiveCheck,
    link: paths.link.pointerPresent ? { linkId: paths.link.linkId, dir: paths.link.dir, problem: paths.link.problem } : null,
    notes,
    problems,
    stores: stores.filter((s) => s.status !== 'missing'),
    upgrade,
  };
}

function printHuman(report: InspectReport, write: (line: string) => void): void {
  write(`project ${report.project}`);
  write(`hive    ${report.hive}`);
  if (report.link) write(`link    ${report.link.linkId ?? '(invalid)'}${report.link.dir ? ` → ${report.link.dir}` : ''}${report.link.problem ? ` (${report.link.problem})` : ''}`);
  for (const note of report.notes) write(`note: ${note}`);
  for (const problem of report.problems) write(`problem: ${problem}`);
  write('');
  const width = Math.max(10, ...report.stores.map((s) => s.store.length));
  write(`${'tier'.padEnd(6)}${'store'.padEnd(width + 2)}${'lines'.padStart(9)}${'records'.padStart(9)}${'defects'.padStart(9)}  status`);
  for (const s of report.stores) {
    const status = s.status === 'ok' ? (s.defectCount ? 'defects' : 'ok') : s.status;
    write(`${s.tier.padEnd(6)}${s.store.padEnd(width + 2)}${String(s.lines).padStart(9)}${String(s.records).padStart(9)}${String(s.defectCount).padStart(9)}  ${status}${s.message ? ` — ${s.message}` : ''}`);
    for (const d of s.defects) write(`      ${s.store}:${d.line} (byte ${d.offset}) ${d.kind}: ${d.reason}`);
    if (s.defectCount > s.defects.length) write(`      … ${s.defectCount - s.defects.length} more defects`);
  }
  if (!report.stores.length) write('(no store files found)');
  const tables = report.upgrade.swarmDb?.storeTables ?? [];
  if (report.upgrade.swarmDb) {
    const db = report.upgrade.swarmDb;
    write('');
    write(`swarm.db ${db.state}${db.userVersion !== null ? `, user_version ${db.userVersion}` : ''}${db.migrations ? `, ${db.migrations.table}: ${db.migrations.rows} rows (latest ${db.migrations.latest ?? '?'})` : ''}`);
    for (const t of tables) write(`      table ${t.name}: ${t.rows ?? '?'} rows (store ${t.storeKey}) — not read yet`);
  }
}

export async function run(argv: string[]): Promise<number> {
  let values: { project?: string; hive?: string; json?: boolean; 'max-defects'?: string };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { project: { type: 'string' }, hive: { type: 'string' }, json: { type: 'boolean' }, 'max-defects': { type: 'string' } },
      allowPositionals: false,
      strict: true,
    }));
  } catch (error) {
    console.error(`swarm-console inspect: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (!values.project) {
    console.error(`swarm-console inspect: --project is required\n${USAGE}`);
    return 2;
  }
  const maxDefects = values['max-defects'] === undefined ? 20 : Number(values['max-defects']);
  if (!Number.isInteger(maxDefects) || maxDefects < 0) {
    console.error(`swarm-console inspect: --max-defects must be a whole number ≥ 0\n${USAGE}`);
    return 2;
  }
  const project = path.resolve(values.project);
  try {
    const stat = fs.statSync(project);
    if (!stat.isDirectory()) throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' });
    fs.readdirSync(project);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'does not exist' : code === 'ENOTDIR' ? 'is not a folder' : `cannot be read (${code})`;
    console.error(`swarm-console inspect: project folder ${project} ${why}`);
    return code === 'EACCES' || code === 'EPERM' ? 1 : 2;
  }
  const hive = values.hive ? path.resolve(values.hive) : resolvePluginDataDir();
  const report = await inspectWorkspace(project, hive, maxDefects);
  // Credentials in store text are masked on the way out, in both formats.
  if (values.json) process.stdout.write(`${terminalJson(maskCredentials(JSON.stringify(report, null, 2)))}\n`);
  else printHuman(report, (line) => process.stdout.write(`${terminalLine(maskCredentials(line))}\n`));
  const unreadable = report.stores.filter((s) => s.status === 'unreadable' || s.status === 'not_a_file');
  for (const s of unreadable) console.error(terminalLine(maskCredentials(`swarm-console inspect: cannot read ${s.path}: ${s.message}`)));
  for (const problem of report.problems) console.error(terminalLine(maskCredentials(`swarm-console inspect: ${problem}`)));
  return unreadable.length || report.problems.length ? 1 : 0;
}
