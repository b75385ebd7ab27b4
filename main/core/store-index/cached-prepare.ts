import type Database from 'better-sqlite3';
import type { IndexDb } from './open-index';

/** A `prepare` that prepares each SQL text once per connection (preparing costs more than a small query). */
export function cachedPrepare(db: IndexDb): (sql: string) => Database.Statement {
  const statements = new Map<string, Database.Statement>();
  return (sql) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = db.prepare(sql)));
    return statement;
  };
}
