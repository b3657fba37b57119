import type Database from 'better-sqlite3';
import type { AgentSearchRequest } from '../../schemas/search.ts';
import { searchAgents } from '../../workers/registry/src/search/agent-search.ts';
import type { SqlRunner, SqlStatement } from '../../workers/registry/src/search/sql-runner.ts';
import { sqliteRunner } from '../sqlite-runner.ts';

/** The search code run once on better-sqlite3 with every statement it sends recorded, then each one's EXPLAIN QUERY PLAN. */
function recording(runner: SqlRunner, statements: SqlStatement[]): SqlRunner {
  return {
    all(statement) {
      statements.push(statement);
      return runner.all(statement);
    },
    batch(batch) {
      statements.push(...batch);
      return runner.batch(batch);
    },
  };
}

export async function queryPlans(db: Database.Database, body: AgentSearchRequest): Promise<string[]> {
  const statements: SqlStatement[] = [];
  await searchAgents(recording(sqliteRunner(db), statements), null, {
    request: body,
    searchId: crypto.randomUUID(),
    queryKey: '',
    startedAt: new Date().toISOString(),
  });
  const lines = [`plan of ${JSON.stringify(body)}:`];
  for (const statement of statements) {
    // Key checks and vocabulary lookups are one-row index reads; the plans that matter are the ones that scan.
    const plan = db
      .prepare(`EXPLAIN QUERY PLAN ${statement.sql}`)
      .all(Object.fromEntries(statement.params.map((value, i) => [i + 1, value]))) as {
      id: number;
      parent: number;
      detail: string;
    }[];
    const depth = new Map<number, number>([[0, 0]]);
    lines.push(`  statement: ${statement.sql.replace(/\s+/g, ' ').slice(0, 110)}…`);
    for (const step of plan) {
      const level = (depth.get(step.parent) ?? 0) + 1;
      depth.set(step.id, level);
      lines.push(`    ${'  '.repeat(level - 1)}${step.detail}`);
    }
  }
  return lines;
}
