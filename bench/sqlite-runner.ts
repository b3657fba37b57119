import type Database from 'better-sqlite3';
import type { SqlRunner, SqlStatement } from '../workers/registry/src/search/sql-runner.ts';

/** The search code's SqlRunner over better-sqlite3: the raw-SQLite side of the benchmark. */
export function sqliteRunner(db: Database.Database): SqlRunner {
  const cache = new Map<string, Database.Statement>();
  const prepare = (sql: string) => {
    let statement = cache.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      cache.set(sql, statement);
    }
    return statement;
  };
  // better-sqlite3 binds numbered placeholders (?1, ?2) by name: { 1: …, 2: … }.
  const run = ({ sql, params }: SqlStatement): unknown[] => {
    const statement = prepare(sql);
    const named = Object.fromEntries(params.map((value, i) => [i + 1, value]));
    if (statement.reader) return statement.all(named);
    statement.run(named);
    return [];
  };
  return {
    async all<Row>(statement: SqlStatement) {
      return run(statement) as Row[];
    },
    async batch(statements: readonly SqlStatement[]) {
      return db.transaction(() => statements.map(run))();
    },
  };
}
