import type { BatchedKeyCheck } from '../../../../lib/auth/index.ts';
import type { SqlRunner } from './sql-runner.ts';

/**
 * A runner whose first batch also reads the caller's key (BatchedKeyCheck): the key costs no round trip of
 * its own, and a refused key throws KeyRefused before any later statement runs.
 */
export function keyedRunner(runner: SqlRunner, check: BatchedKeyCheck): SqlRunner {
  let checked = false;
  return {
    async all<Row>(statement: Parameters<SqlRunner['all']>[0]) {
      if (checked) return runner.all<Row>(statement);
      return (await this.batch([statement]))[0] as Row[];
    },
    async batch(statements) {
      if (checked) return runner.batch(statements);
      const [keyRows, ...results] = await runner.batch([check.statement, ...statements]);
      checked = true;
      check.settle(keyRows!);
      return results;
    },
  };
}
