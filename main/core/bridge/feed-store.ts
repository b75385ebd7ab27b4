import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { DirectiveCounter, FeedFilter, FeedItem } from '../../../shared/contract/live';
import { ensurePrivateDatabaseFile } from '../platform/paths/private-files';

/**
 * Everything the feed ever showed, in SQLite (`<userDataDir>/bridge.db`, or `:memory:` for the
 * read-only CLI): items for history and search, the per-directive index behind the counters,
 * the last seq per OpenCode session (so a restart of the console still catches up), and settings.
 * It is the console's own file; no plugin store is ever written.
 */
const SCHEMA_VERSION = 1;
const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS feed (
  id TEXT PRIMARY KEY,
  time INTEGER NOT NULL,
  kind TEXT NOT NULL,
  source TEXT NOT NULL,
  server_id TEXT,
  directory TEXT,
  session_id TEXT,
  tool TEXT,
  gate TEXT NOT NULL,
  message TEXT NOT NULL,
  item_json TEXT NOT NULL,
  linked_id TEXT,
  hidden INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS feed_time ON feed(time DESC, id DESC);
CREATE INDEX IF NOT EXISTS feed_session ON feed(session_id, time);
CREATE INDEX IF NOT EXISTS feed_linked ON feed(linked_id);
CREATE TABLE IF NOT EXISTS feed_directive (
  item_id TEXT NOT NULL,
  directive_id TEXT NOT NULL,
  tool TEXT,
  time INTEGER NOT NULL,
  directory TEXT,
  PRIMARY KEY (item_id, directive_id)
);
CREATE INDEX IF NOT EXISTS feed_directive_time ON feed_directive(directive_id, time);
CREATE TABLE IF NOT EXISTS seq_state (server_key TEXT NOT NULL, session_id TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (server_key, session_id));
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

interface FeedPage {
  items: FeedItem[];
  nextCursor: { time: number; id: string } | null;
}

const DENIAL_KINDS = "('denial','block')";

/** The project folder itself or anything below it (sessions may run in a subfolder). */
const underProject = (alias: string) => `(${alias}.directory = ? OR ${alias}.directory LIKE ? ESCAPE '\\')`;
function projectParams(project: string): string[] {
  const dir = project.replace(/\/+$/, '') || '/';
  return [dir, `${dir.replace(/[\\%_]/g, (c) => `\\${c}`)}/%`];
}

/**
 * The items that belong to one workspace (its project folder): the gate lines of that project's own
 * `.swarm/events.jsonl` (directory exactly the project) and the OpenCode sessions that ran in the
 * project or below it. Anything else (the demo's history, another worktree's) never shows there.
 * A denial whose session directory OpenCode never told is shown everywhere rather than lost.
 */
const inWorkspace = (alias: string) =>
  `(${alias}.directory = ? OR (${alias}.source = 'opencode' AND (${alias}.directory IS NULL OR ${alias}.directory LIKE ? ESCAPE '\\')))`;

/** A WHERE fragment and its parameters; empty when no workspace scope is asked for (the CLI). */
function workspaceScope(alias: string, workspace: string | undefined): { sql: string; params: string[] } {
  return workspace ? { sql: `AND ${inWorkspace(alias)}`, params: projectParams(workspace) } : { sql: '', params: [] };
}

function open(file: string): Database.Database {
  if (file !== ':memory:') ensurePrivateDatabaseFile(file);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.exec(SCHEMA);
  const row = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: string } | undefined;
  if (!row) db.prepare("INSERT INTO meta(key, value) VALUES ('schema_version', ?)").run(String(SCHEMA_VERSION));
  else if (Number(row.value) !== SCHEMA_VERSION) throw new Error(`bridge.db has schema ${row.value}, expected ${SCHEMA_VERSION}`);
  return db;
}

export class FeedStore {
  readonly db: Database.Database;
  private readonly stmts;

  constructor(readonly file: string) {
    if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
    let db: Database.Database;
    try {
      db = open(file);
    } catch (error) {
      if (file === ':memory:') throw error;
      // The feed is a cache of what the servers and events.jsonl say: start over rather than fail.
      for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
      db = open(file);
    }
    this.db = db;
    this.stmts = {
      insert: db.prepare(
        `INSERT OR IGNORE INTO feed (id, time, kind, source, server_id, directory, session_id, tool, gate, message, item_json)
         VALUES (@id, @time, @kind, @source, @serverId, @directory, @sessionID, @tool, @gate, @message, @json)`,
      ),
      insertDirective: db.prepare('INSERT OR IGNORE INTO feed_directive (item_id, directive_id, tool, time, directory) VALUES (?, ?, ?, ?, ?)'),
      update: db.prepare('UPDATE feed SET item_json = ?, linked_id = COALESCE(?, linked_id) WHERE id = ?'),
      hide: db.prepare('UPDATE feed SET hidden = 1, linked_id = ? WHERE id = ?'),
      known: db.prepare('SELECT 1 FROM feed WHERE id = ? OR linked_id = ? LIMIT 1'),
      get: db.prepare('SELECT item_json FROM feed WHERE id = ?'),
      matchLive: db.prepare(
        `SELECT item_json FROM feed WHERE source = 'opencode' AND kind = 'denial' AND hidden = 0 AND linked_id IS NULL
           AND session_id = ? AND tool = ? AND time BETWEEN ? AND ? ORDER BY abs(time - ?) LIMIT 5`,
      ),
      matchEvents: db.prepare(
        `SELECT item_json FROM feed WHERE source = 'events' AND kind = 'denial' AND hidden = 0
           AND session_id = ? AND tool = ? AND time BETWEEN ? AND ? ORDER BY abs(time - ?) LIMIT 5`,
      ),
      seqLoad: db.prepare('SELECT session_id, seq FROM seq_state WHERE server_key = ?'),
      seqSave: db.prepare('INSERT INTO seq_state (server_key, session_id, seq) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET seq = excluded.seq'),
      settingGet: db.prepare('SELECT value FROM settings WHERE key = ?'),
      settingSet: db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT DO UPDATE SET value = excluded.value'),
    };
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  /** False when the item (or an item it was merged into) is already stored. */
  insert(item: FeedItem): boolean {
    if (this.known(item.id)) return false;
    const run = this.db.transaction(() => {
      this.stmts.insert.run({ ...item, json: JSON.stringify(item) });
      for (const directiveId of item.directiveIds) this.stmts.insertDirective.run(item.id, directiveId, item.tool, item.time, item.directory);
    });
    run();
    return true;
  }

  known(id: string): boolean {
    return this.stmts.known.get(id, id) !== undefined;
  }

  get(id: string): FeedItem | null {
    const row = this.stmts.get.get(id) as { item_json: string } | undefined;
    return row ? (JSON.parse(row.item_json) as FeedItem) : null;
  }

  update(item: FeedItem, linkedId: string | null = null): void {
    this.stmts.update.run(JSON.stringify(item), linkedId, item.id);
  }

  /** The events.jsonl row absorbed into the live denial `into`. */
  hide(id: string, into: string): void {
    this.stmts.hide.run(into, id);
  }

  /** Unlinked live denials of the same session and tool around `time`. */
  liveDenialsNear(sessionID: string, tool: string, time: number, windowMs: number): FeedItem[] {
    const rows = this.stmts.matchLive.all(sessionID, tool, time - windowMs, time + windowMs, time) as { item_json: string }[];
    return rows.map((r) => JSON.parse(r.item_json) as FeedItem);
  }

  eventDenialsNear(sessionID: string, tool: string, time: number, windowMs: number): FeedItem[] {
    const rows = this.stmts.matchEvents.all(sessionID, tool, time - windowMs, time + windowMs, time) as { item_json: string }[];
    return rows.map((r) => JSON.parse(r.item_json) as FeedItem);
  }

  countRepeats(directiveId: string, tool: string, since: number, workspace?: string): { count: number; sessionIDs: string[] } {
    const scope = workspaceScope('f', workspace);
    const row = this.db
      .prepare(
        `SELECT count(*) AS n, group_concat(DISTINCT f.session_id) AS sessions FROM feed_directive d JOIN feed f ON f.id = d.item_id
          WHERE d.directive_id = ? AND d.tool = ? AND d.time >= ? AND f.hidden = 0 AND f.kind IN ${DENIAL_KINDS} ${scope.sql}`,
      )
      .get(directiveId, tool, since, ...scope.params) as { n: number; sessions: string | null };
    return { count: row.n, sessionIDs: row.sessions ? row.sessions.split(',').slice(0, 20) : [] };
  }

  /** Whether an item belongs to the workspace of `project` (the same rule as the queries' scope). */
  static belongsTo(item: Pick<FeedItem, 'directory' | 'source'>, project: string): boolean {
    const dir = project.replace(/\/+$/, '') || '/';
    if (!item.directory) return item.source === 'opencode';
    return item.directory === dir || (item.source === 'opencode' && item.directory.startsWith(dir === '/' ? '/' : `${dir}/`));
  }

  /** `workspace`: only the items of that project (see `inWorkspace`); absent for the CLI's own feed. */
  query(filter: FeedFilter, before: { time: number; id: string } | undefined, limit: number, workspace?: string): FeedPage {
    const where: string[] = ['f.hidden = 0'];
    const params: unknown[] = [];
    if (workspace) {
      where.push(inWorkspace('f'));
      params.push(...projectParams(workspace));
    }
    if (filter.project) {
      where.push(underProject('f'));
      params.push(...projectParams(filter.project));
    }
    if (filter.serverId) (where.push('f.server_id = ?'), params.push(filter.serverId));
    if (filter.sessionID) (where.push('f.session_id = ?'), params.push(filter.sessionID));
    if (filter.tool) (where.push('f.tool = ?'), params.push(filter.tool));
    if (filter.gate) (where.push('f.gate = ?'), params.push(filter.gate));
    if (filter.kind) (where.push('f.kind = ?'), params.push(filter.kind));
    if (filter.directiveId) (where.push('EXISTS (SELECT 1 FROM feed_directive d WHERE d.item_id = f.id AND d.directive_id = ?)'), params.push(filter.directiveId));
    if (filter.text) (where.push('instr(lower(f.message), lower(?)) > 0'), params.push(filter.text));
    if (before) (where.push('(f.time < ? OR (f.time = ? AND f.id < ?))'), params.push(before.time, before.time, before.id));
    const rows = this.db
      .prepare(`SELECT f.item_json FROM feed f WHERE ${where.join(' AND ')} ORDER BY f.time DESC, f.id DESC LIMIT ?`)
      .all(...params, limit + 1) as { item_json: string }[];
    const items = rows.slice(0, limit).map((r) => JSON.parse(r.item_json) as FeedItem);
    const last = items.at(-1);
    return { items, nextCursor: rows.length > limit && last ? { time: last.time, id: last.id } : null };
  }

  facets(workspace?: string): { projects: string[]; tools: string[]; gates: string[]; directives: string[]; sessions: string[] } {
    const scope = workspaceScope('feed', workspace);
    const col = (sql: string) => (this.db.prepare(sql).all(...scope.params) as { v: string }[]).map((r) => r.v);
    return {
      projects: col(`SELECT DISTINCT directory AS v FROM feed WHERE hidden = 0 AND directory IS NOT NULL ${scope.sql} ORDER BY v LIMIT 500`),
      tools: col(`SELECT DISTINCT tool AS v FROM feed WHERE hidden = 0 AND tool IS NOT NULL ${scope.sql} ORDER BY v LIMIT 500`),
      gates: col(`SELECT DISTINCT gate AS v FROM feed WHERE hidden = 0 ${scope.sql} ORDER BY v LIMIT 500`),
      directives: col(
        `SELECT d.directive_id AS v FROM feed_directive d JOIN feed ON feed.id = d.item_id WHERE 1 = 1 ${scope.sql} GROUP BY d.directive_id ORDER BY max(d.time) DESC LIMIT 500`,
      ),
      sessions: col(`SELECT session_id AS v FROM feed WHERE hidden = 0 AND session_id IS NOT NULL ${scope.sql} GROUP BY session_id ORDER BY max(time) DESC LIMIT 500`),
    };
  }

  counters(now: number, project: string | undefined, limit: number, workspace?: string): DirectiveCounter[] {
    const hour = now - 3_600_000;
    const day = now - 86_400_000;
    const scope = workspaceScope('f', workspace);
    const projectClause = `${project ? `AND ${underProject('d')}` : ''} ${scope.sql}`;
    const params: unknown[] = [...(project ? projectParams(project) : []), ...scope.params];
    const rows = this.db
      .prepare(
        `SELECT d.directive_id AS id, sum(d.time >= ?) AS lastHour, sum(d.time >= ?) AS lastDay, count(*) AS total, max(d.time) AS lastTime
           FROM feed_directive d JOIN feed f ON f.id = d.item_id
          WHERE f.hidden = 0 AND f.kind IN ${DENIAL_KINDS} ${projectClause}
          GROUP BY d.directive_id ORDER BY lastDay DESC, lastTime DESC LIMIT ?`,
      )
      .all(hour, day, ...params, limit) as { id: string; lastHour: number; lastDay: number; total: number; lastTime: number }[];
    const tools = this.db.prepare(
      `SELECT d.tool AS tool, count(*) AS count FROM feed_directive d JOIN feed f ON f.id = d.item_id
        WHERE d.directive_id = ? AND f.hidden = 0 AND f.kind IN ${DENIAL_KINDS} ${scope.sql} GROUP BY d.tool ORDER BY count DESC LIMIT 10`,
    );
    return rows.map((r) => ({
      directiveId: r.id,
      lastHour: r.lastHour,
      lastDay: r.lastDay,
      total: r.total,
      lastTime: r.lastTime,
      tools: (tools.all(r.id, ...scope.params) as { tool: string | null; count: number }[]).map((t) => ({ tool: t.tool ?? '?', count: t.count })),
    }));
  }

  denialsPerSession(workspace?: string): Map<string, number> {
    const scope = workspaceScope('feed', workspace);
    const rows = this.db
      .prepare(`SELECT session_id AS id, count(*) AS n FROM feed WHERE hidden = 0 AND kind IN ${DENIAL_KINDS} AND session_id IS NOT NULL ${scope.sql} GROUP BY session_id`)
      .all(...scope.params) as { id: string; n: number }[];
    return new Map(rows.map((r) => [r.id, r.n]));
  }

  loadSeqs(serverKey: string): Map<string, number> {
    const rows = this.stmts.seqLoad.all(serverKey) as { session_id: string; seq: number }[];
    return new Map(rows.map((r) => [r.session_id, r.seq]));
  }

  saveSeqs(serverKey: string, entries: [string, number][]): void {
    if (!this.db.open) return;
    this.db.transaction(() => {
      for (const [sessionID, seq] of entries) this.stmts.seqSave.run(serverKey, sessionID, seq);
    })();
  }

  getSetting<T>(key: string): T | null {
    const row = this.stmts.settingGet.get(key) as { value: string } | undefined;
    if (!row) return null;
    try {
      return JSON.parse(row.value) as T;
    } catch {
      return null;
    }
  }

  setSetting(key: string, value: unknown): void {
    this.stmts.settingSet.run(key, JSON.stringify(value));
  }

}
