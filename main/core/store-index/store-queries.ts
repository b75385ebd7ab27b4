import path from 'node:path';
import type { z } from 'zod';
import type { DefectsInput, DefectsPage, RecordsInput, RecordsPage, StoreSummary } from '../../../shared/contract/stores';
import { storeDef, type StoreDef, type StoreTable } from '../stores/catalog';
import type { StoreFile } from '../stores/locate';
import type { StoreLocation } from '../stores/store-location';
import type { IndexDb } from './open-index';
import { storedLineSql } from './stored-lines';
import { Where, containsPattern, orderedByRids, parseJsonObject } from './sql';

interface FileRow {
  id: number;
  path: string;
  store_key: string;
  tier: 'swarm' | 'hive' | 'link';
  name: string;
  orphaned: number;
  symlink_target: string | null;
  status: string;
  message: string | null;
  size: number | null;
  lines: number;
  records: number;
  defects: number;
  pending_tail: number;
}

function fileSummary(row: FileRow) {
  return {
    name: row.name,
    path: row.path,
    status: row.status,
    message: row.message,
    lines: row.lines,
    records: row.records,
    defects: row.defects,
    size: row.size,
    pendingTail: row.pending_tail === 1,
    orphaned: row.orphaned === 1,
    symlinkTarget: row.symlink_target,
  };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function statusOf(def: Pick<StoreDef, 'pattern'>, location: { displayPrefix: string }, files: FileRow[], orphaned: boolean, swarmDirExists: boolean) {
  const pattern = location.displayPrefix + def.pattern;
  const present = files.filter((f) => f.status !== 'missing' && f.status !== 'new');
  const records = files.reduce((n, f) => n + f.records, 0);
  const defects = files.reduce((n, f) => n + f.defects, 0);
  if (!present.length) {
    const why = !swarmDirExists && pattern.startsWith('.swarm/') ? '.swarm/ does not exist in this project' : `${pattern} does not exist (nothing written yet)`;
    const removed = files.find((f) => f.message?.includes('was deleted'));
    return { status: 'missing' as const, message: removed?.message ?? why };
  }
  if (orphaned) return { status: 'orphaned' as const, message: `${present[0]?.name}: the plugin ignores this local file while the worktree is linked` };
  const notFile = present.find((f) => f.status === 'not_a_file');
  if (notFile) return { status: 'not_a_file' as const, message: notFile.message ?? `${notFile.name} is not a file` };
  const unreadable = present.find((f) => f.status === 'unreadable');
  if (unreadable) return { status: 'unreadable' as const, message: unreadable.message ?? `${unreadable.name} cannot be read` };
  const extra = present.map((f) => f.message).filter((m): m is string => !!m);
  const base = `${plural(records, 'record')}${present.length > 1 ? ` in ${plural(present.length, 'file')}` : ''}`;
  if (defects) return { status: 'defects' as const, message: [`${base}, ${plural(defects, 'defect')}`, ...extra].join('; ') };
  return { status: 'ok' as const, message: [base, ...extra].join('; ') };
}

export function summariseStores(db: IndexDb, locations: StoreLocation[], orphans: StoreFile[], swarmDirExists: boolean): StoreSummary[] {
  const rows = db.prepare('SELECT * FROM files ORDER BY name').all() as FileRow[];
  const byStore = new Map<string, FileRow[]>();
  for (const row of rows) byStore.set(row.store_key, [...(byStore.get(row.store_key) ?? []), row]);
  const out: StoreSummary[] = [];
  for (const location of locations) {
    const files = (byStore.get(location.def.key) ?? []).filter((f) => f.orphaned === 0);
    const sums = { lines: files.reduce((n, f) => n + f.lines, 0), records: files.reduce((n, f) => n + f.records, 0), defects: files.reduce((n, f) => n + f.defects, 0) };
    const state = statusOf(location.def, location, files, false, swarmDirExists);
    out.push({
      key: location.def.key,
      label: location.def.label,
      tier: location.tier,
      format: location.def.format,
      table: location.def.table,
      provenance: location.def.provenance,
      pattern: location.displayPrefix + location.def.pattern,
      rootDir: location.rootDir,
      exists: state.status !== 'missing',
      files: files.filter((f) => f.status !== 'missing' || f.message?.includes('was deleted')).map(fileSummary),
      ...sums,
      ...state,
    });
  }
  for (const orphan of orphans) {
    const files = byStore.get(orphan.storeKey) ?? [];
    const state = statusOf({ pattern: orphan.name }, { displayPrefix: '' }, files, true, swarmDirExists);
    out.push({
      key: orphan.storeKey,
      label: `Orphaned local ${orphan.name.replace(/^\.swarm\//, '')}`,
      tier: 'swarm',
      format: orphan.name.endsWith('.jsonl') ? 'jsonl' : 'json',
      table: null,
      provenance: 'snapshot',
      pattern: orphan.name,
      rootDir: path.dirname(path.dirname(orphan.path)),
      exists: files.length > 0,
      files: files.map(fileSummary),
      lines: files.reduce((n, f) => n + f.lines, 0),
      records: files.reduce((n, f) => n + f.records, 0),
      defects: files.reduce((n, f) => n + f.defects, 0),
      ...state,
    });
  }
  return out;
}

export function listDefects(db: IndexDb, input: z.output<typeof DefectsInput>): z.output<typeof DefectsPage> {
  const where = new Where().add('fl.orphaned = 0');
  if (input.store) where.add('d.store_key = ?', input.store);
  if (input.kind) where.add('d.kind = ?', input.kind);
  const total = (db.prepare(`SELECT count(*) AS n FROM defects d JOIN files fl ON fl.id = d.file_id ${where.sql}`).get(...where.params) as { n: number }).n;
  const items = db
    .prepare(
      `SELECT d.store_key AS store, fl.name AS file, fl.path, d.line, d.offset, d.kind, d.reason FROM defects d JOIN files fl ON fl.id = d.file_id
       ${where.sql} ORDER BY fl.name, d.offset, d.rid LIMIT ? OFFSET ?`,
    )
    .all(...where.params, input.limit, input.offset) as z.output<typeof DefectsPage>['items'];
  return { total, items };
}

/** The generic columns of each table: id, kind, timestamp. */
const GENERIC: Record<StoreTable, { id: string; kind: string; ts: string }> = {
  entries: { id: 't.id', kind: 't.status', ts: 't.updated_at' },
  events: { id: 't.knowledge_id', kind: 't.kind', ts: 't.ts_ms' },
  receipts: { id: 't.trace_id', kind: 't.type', ts: 't.ts' },
  records: { id: 't.rec_id', kind: 't.kind', ts: 't.ts' },
};

export function listRecords(db: IndexDb, input: z.output<typeof RecordsInput>): z.output<typeof RecordsPage> | null {
  const def = storeDef(input.store);
  if (!def) return null;
  const cols = GENERIC[def.table];
  const where = new Where().add('t.store_key = ?', def.key);
  if (input.filter.id) where.add(`${cols.id} = ?`, input.filter.id);
  where.in(cols.kind, input.filter.kind);
  if (input.filter.flaggedOnly) where.add('t.flagged = 1');
  // Whole-file records keep their text; JSONL lines are read back from the store's files, in file order.
  const lineSql = def.table === 'records' ? '(SELECT x.raw FROM records_raw x WHERE x.rid = t.rid)' : storedLineSql('t', 'fl');
  if (input.filter.text) {
    where.add(
      def.table === 'records'
        ? `t.rid IN (SELECT rid FROM records_raw WHERE raw LIKE ? ESCAPE '\\')`
        : `t.rid IN (SELECT t.rid FROM ${def.table} t JOIN files fl ON fl.id = t.file_id WHERE +t.store_key = ? AND ${lineSql} LIKE ? ESCAPE '\\' ORDER BY t.rid)`,
      ...(def.table === 'records' ? [] : [def.key]),
      containsPattern(input.filter.text),
    );
  }
  const dir = input.sort.dir === 'asc' ? 'ASC' : 'DESC';
  const sortColumn = { line: 't.rid', ts: cols.ts, id: cols.id, kind: cols.kind }[input.sort.field];
  // events/receipts have no file index: their rows of one file are in line order by rid.
  const byLine = def.table === 'events' || def.table === 'receipts' ? `t.rid ${dir}` : `t.file_id ${dir}, t.line ${dir}`;
  const order = input.sort.field === 'line' ? byLine : `${sortColumn} ${dir} NULLS LAST, t.rid ${dir}`;
  const total = (db.prepare(`SELECT count(*) AS n FROM ${def.table} t ${where.sql}`).get(...where.params) as { n: number }).n;
  // Two steps: page rids from the indexes, then the page's details (see event-queries.ts).
  const rids = db.prepare(`SELECT t.rid FROM ${def.table} t ${where.sql} ORDER BY ${order} LIMIT ? OFFSET ?`).pluck().all(...where.params, input.limit, input.offset) as number[];
  type Row = { rid: number; name: string; line: number; offset: number; id: string | null; kind: string | null; ts: string | number | null; flagged: number; raw: string };
  const rows = orderedByRids(
    rids,
    rids.length
      ? (db
          .prepare(
            `SELECT t.rid, fl.name, t.line, t.offset, ${cols.id} AS id, ${cols.kind} AS kind, ${cols.ts} AS ts, t.flagged, ${lineSql} AS raw
             FROM ${def.table} t JOIN files fl ON fl.id = t.file_id WHERE t.rid IN (${rids.map(() => '?').join(', ')})`,
          )
          .all(...rids) as Row[])
      : [],
  );
  return {
    total,
    items: rows.map((r) => ({
      rid: r.rid,
      store: def.key,
      file: r.name,
      line: r.line,
      offset: r.offset,
      id: r.id,
      kind: r.kind,
      ts: typeof r.ts === 'number' ? new Date(r.ts).toISOString() : r.ts,
      flagged: r.flagged === 1,
      record: parseJsonObject(r.raw),
    })),
  };
}
