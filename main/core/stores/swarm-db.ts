import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { STORES } from './catalog';

/**
 * A look at the plugin's `.swarm/swarm.db` without touching it. From opencode-swarm 7.162 that
 * database is "the single durable substrate": store families move into it one by one (a
 * one-transaction import while the table is empty, then the JSONL file is renamed to
 * `<file>.imported`). Which knowledge families move, and their table layout, is not known, so
 * the console only reports what it sees: `PRAGMA user_version`, a migrations table, and tables
 * whose names match a store family it knows (with their row counts, "not read yet").
 *
 * The connection is read-only (`readonly`, `fileMustExist`), waits at most `BUSY_WAIT_MS` for a
 * plugin that holds an exclusive lock, runs only SELECTs and pragma reads, and closes at once:
 * it never writes, never checkpoints (a read-only connection cannot) and never leaves a journal.
 * Whatever goes wrong is reported in `problem`, never thrown.
 */
export const BUSY_WAIT_MS = 150;

export interface SwarmDbTable {
  name: string;
  rows: number | null;
  /** The store key the table's name matches (e.g. `knowledge`). */
  storeKey: string;
}

export interface SwarmDbProbe {
  path: string;
  /** ok: read; busy: the plugin held a lock longer than the wait; unreadable: not a database, no permission, … */
  state: 'ok' | 'busy' | 'unreadable';
  problem: string | null;
  size: number;
  modifiedAt: string;
  userVersion: number | null;
  /** A table whose name says it records migrations, with its rows and its highest version when it has such a column. */
  migrations: { table: string; rows: number; latest: string | null } | null;
  /** Tables named like a store family the console reads (not read yet). */
  storeTables: SwarmDbTable[];
  tableCount: number | null;
}

const normalise = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');

/** Table names that would hold a store family: its key or file stem, singular or plural, or `<stem>_entries`. */
const FAMILY_NAMES: ReadonlyMap<string, string> = (() => {
  const names = new Map<string, string>();
  for (const def of STORES) {
    if (def.format !== 'jsonl') continue;
    const stem = normalise(path.basename(def.pattern).replace(/\.jsonl$/, ''));
    for (const base of new Set([normalise(def.key), stem])) {
      for (const name of [base, `${base}s`, `${base}_entries`, `${base}_records`]) if (!names.has(name)) names.set(name, def.key);
    }
  }
  return names;
})();

export const storeKeyOfTable = (table: string): string | null => FAMILY_NAMES.get(normalise(table)) ?? null;

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

function describeError(error: unknown): { state: 'busy' | 'unreadable'; problem: string } {
  const code = (error as { code?: string }).code ?? '';
  const message = (error as Error).message ?? String(error);
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return { state: 'busy', problem: `swarm.db is locked by the plugin (waited ${BUSY_WAIT_MS} ms): ${message}` };
  }
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') return { state: 'unreadable', problem: `swarm.db is not a readable SQLite database (${code}): ${message}` };
  return { state: 'unreadable', problem: `swarm.db could not be read (${code || 'error'}): ${message}` };
}

/** The probe of `<swarmDir>/swarm.db`, or null when there is none. */
export function probeSwarmDb(swarmDir: string): SwarmDbProbe | null {
  const file = path.join(swarmDir, 'swarm.db');
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return null;
  }
  const base: SwarmDbProbe = {
    path: file,
    state: 'ok',
    problem: null,
    size: stat.size,
    modifiedAt: stat.mtime.toISOString(),
    userVersion: null,
    migrations: null,
    storeTables: [],
    tableCount: null,
  };
  if (!stat.isFile()) return { ...base, state: 'unreadable', problem: `${file} is not a file` };
  let db: Database.Database | null = null;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true, timeout: BUSY_WAIT_MS });
    const userVersion = db.pragma('user_version', { simple: true }) as number;
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[]).map((t) => t.name);
    const count = (table: string) => (db!.prepare(`SELECT count(*) AS n FROM ${quoteIdent(table)}`).get() as { n: number }).n;
    const migrationTable = tables.find((t) => /migration|schema_version/i.test(t)) ?? null;
    let migrations: SwarmDbProbe['migrations'] = null;
    if (migrationTable) {
      const columns = (db.prepare(`PRAGMA table_info(${quoteIdent(migrationTable)})`).all() as { name: string }[]).map((c) => c.name);
      const versionColumn = columns.find((c) => /^(version|id|name|migration)$/i.test(c)) ?? null;
      const latest = versionColumn ? (db.prepare(`SELECT max(${quoteIdent(versionColumn)}) AS v FROM ${quoteIdent(migrationTable)}`).get() as { v: unknown }).v : null;
      migrations = { table: migrationTable, rows: count(migrationTable), latest: latest === null || latest === undefined ? null : String(latest) };
    }
    const storeTables = tables.flatMap((name) => {
      const storeKey = storeKeyOfTable(name);
      return storeKey ? [{ name, storeKey, rows: count(name) }] : [];
    });
    return { ...base, userVersion, migrations, storeTables, tableCount: tables.length };
  } catch (error) {
    return { ...base, ...describeError(error) };
  } finally {
    try {
      db?.close();
    } catch {
      // Closing a read-only connection cannot lose anything.
    }
  }
}
