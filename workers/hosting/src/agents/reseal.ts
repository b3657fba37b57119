import { vaultOf } from './vault.ts';

/** Rows re-sealed per table and run: a run's subrequests stay well within a cron invocation's. */
const RESEAL_BATCH = 200;

/** A table holding sealed values: the sealed column and the columns that name a row. */
interface SealedTable {
  table: string;
  column: string;
  keys: readonly string[];
}
const SEEDS: SealedTable = { table: 'hosted_agents', column: 'sealed_seed', keys: ['address'] };
const SECRETS: SealedTable = { table: 'hosted_secrets', column: 'sealed_value', keys: ['address', 'name'] };

/** Updates re-sealing a batch of the table's rows not sealed under `current` (a LIKE pattern of the current key's prefix). */
async function resealBatch(env: HostingEnv, vault: ReturnType<typeof vaultOf>, current: string, { table, column, keys }: SealedTable) {
  const { results } = await env.DB.prepare(`SELECT ${[...keys, column].join(', ')} FROM ${table} WHERE ${column} NOT LIKE ?1 LIMIT ?2`)
    .bind(current, RESEAL_BATCH)
    .all<Record<string, string>>();
  const named = keys.map((key, i) => `${key} = ?${i + 2}`).join(' AND ');
  const update = env.DB.prepare(`UPDATE ${table} SET ${column} = ?1 WHERE ${named} AND ${column} = ?${keys.length + 2}`);
  return Promise.all(
    results.map(async (row) => update.bind(await vault.sealWithCurrent(row[column]!), ...keys.map((key) => row[key]!), row[column]!)),
  );
}

/**
 * The rotation's second step (docs/security.md, "Secrets"): each run re-seals, under the vault's current key,
 * a batch of seeds and secret values still sealed under a retired one. Once a run finds none, the operator may
 * drop the retired key from HOSTING_SEED_KEYS. A row changed meanwhile keeps its newer value (the update matches the old text).
 */
export async function resealRetired(env: HostingEnv): Promise<{ seeds: number; secrets: number }> {
  const vault = vaultOf(env);
  const current = `${await vault.currentPrefix()}%`;
  const seeds = await resealBatch(env, vault, current, SEEDS);
  const secrets = await resealBatch(env, vault, current, SECRETS);
  if (seeds.length + secrets.length > 0) await env.DB.batch([...seeds, ...secrets]);
  return { seeds: seeds.length, secrets: secrets.length };
}
