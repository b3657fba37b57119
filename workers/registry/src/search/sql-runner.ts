/**
 * The one way search code talks to SQL. D1 in the Worker; the benchmark runs the same search code on
 * better-sqlite3 through this interface to compare the Worker path with the raw query.
 */
export interface SqlStatement {
  sql: string;
  params: readonly unknown[];
}

export interface SqlRunner {
  all<Row>(statement: SqlStatement): Promise<Row[]>;
  /** Runs several statements in one round trip (D1 batch, one transaction). */
  batch(statements: readonly SqlStatement[]): Promise<unknown[][]>;
}

/** Over a database or one of its Sessions API sessions (a replica read: shards/shard-set.ts). */
export function d1Runner(db: Pick<D1Database, 'prepare' | 'batch'>): SqlRunner {
  const prepare = ({ sql, params }: SqlStatement) => db.prepare(sql).bind(...params);
  return {
    async all<Row>(statement: SqlStatement) {
      return (await prepare(statement).all<Row>()).results;
    },
    async batch(statements: readonly SqlStatement[]) {
      if (statements.length === 0) return [];
      const results = await db.batch(statements.map(prepare));
      return results.map((result) => result.results);
    },
  };
}
