import type { BatchedKeyCheck } from '../keys/batched-key.ts';
import type { SqlRunner, SqlStatement } from './sql-runner.ts';

/**
 * A runner whose first batch also reads the caller's key (BatchedKeyCheck): the key costs no round trip of
 * its own, and a refused key throws its refusal (an ApiError) before any later statement runs.
 */
export function keyedRunner(runner: SqlRunner, check: BatchedKeyCheck): SqlRunner {
  let checked = false;
  async function batch(statements: readonly SqlStatement[]): Promise<unknown[][]> {
    if (checked) return runner.batch(statements);
    const [keyRows, ...results] = await runner.batch([check.statement, ...statements]);
    checked = true;
    check.settle(keyRows!);
    return results;
  }
  return {
    async all<Row>(statement: SqlStatement) {
      return checked ? runner.all<Row>(statement) : ((await batch([statement]))[0] as Row[]);
    },
    batch,
  };
}
