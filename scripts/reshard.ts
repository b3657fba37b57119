import Database from 'better-sqlite3';
import { parseArgs } from 'node:util';
import { countShards, moveAgents, type Phase } from './reshard/move-agents.ts';

/**
 * Resharding (docs/decisions/0206, docs/scale.md): moves agents to their shard under a new shard count.
 *
 *   tsx scripts/reshard.ts --phase copy   shard0.sqlite shard1.sqlite … shardN.sqlite
 *   (deploy the registry with AGENT_SHARDS naming the new shards: reads switch)
 *   tsx scripts/reshard.ts --phase delete shard0.sqlite … shardN.sqlite
 *   tsx scripts/reshard.ts --phase verify shard0.sqlite … shardN.sqlite
 *
 * The files are the shards' D1 databases (shard 0, the home database, first), the new ones already migrated.
 * Each phase can be run again after an interruption. `verify` prints the totals and fails unless every agent
 * is on its shard once.
 */
const { values, positionals } = parseArgs({ options: { phase: { type: 'string' } }, allowPositionals: true });
const phase = values.phase;
if (!['copy', 'delete', 'verify'].includes(phase ?? '') || positionals.length < 2) {
  console.error('usage: tsx scripts/reshard.ts --phase copy|delete|verify shard0.sqlite shard1.sqlite …');
  process.exit(2);
}
const shards = positionals.map((file) => new Database(file, { fileMustExist: true }));
try {
  if (phase !== 'verify') {
    const started = performance.now();
    const figures = await moveAgents(shards, phase as Phase, (done) => process.stderr.write(`\r${phase}: ${done} agents`));
    process.stderr.write('\n');
    console.log(`${phase}: ${figures.copied} copied, ${figures.deleted} deleted in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  const counts = countShards(shards);
  console.log(JSON.stringify(counts));
  if (phase === 'verify' && (counts.misplaced > 0 || counts.duplicated > 0)) {
    console.error(`not done: ${counts.misplaced} agents on another shard than theirs, ${counts.duplicated} on two`);
    process.exitCode = 1;
  }
} finally {
  for (const db of shards) db.close();
}
