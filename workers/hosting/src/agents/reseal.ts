import { vaultOf } from './vault.ts';

/** Rows re-sealed per table and run: a run's subrequests stay well within a cron invocation's. */
const RESEAL_BATCH = 200;

/**
 * The rotation's second step (docs/security.md, "Secrets"): each run re-seals, under the vault's current key,
 * a batch of seeds and secret values still sealed under a retired one. Once a run finds none, the operator may
 * drop the retired key from HOSTING_SEED_KEYS. A row changed meanwhile keeps its newer value (the update matches the old text).
 */
export async function resealRetired(env: HostingEnv): Promise<{ seeds: number; secrets: number }> {
  const vault = vaultOf(env);
  const current = `${await vault.currentPrefix()}%`;
  const seeds = await env.DB.prepare('SELECT address, sealed_seed AS sealed FROM hosted_agents WHERE sealed_seed NOT LIKE ?1 LIMIT ?2')
    .bind(current, RESEAL_BATCH)
    .all<{ address: string; sealed: string }>();
  const secrets = await env.DB.prepare(
    'SELECT address, name, sealed_value AS sealed FROM hosted_secrets WHERE sealed_value NOT LIKE ?1 LIMIT ?2',
  )
    .bind(current, RESEAL_BATCH)
    .all<{ address: string; name: string; sealed: string }>();
  const statements = [
    ...(await Promise.all(
      seeds.results.map(async (row) =>
        env.DB.prepare('UPDATE hosted_agents SET sealed_seed = ?1 WHERE address = ?2 AND sealed_seed = ?3').bind(
          await vault.sealWithCurrent(row.sealed),
          row.address,
          row.sealed,
        ),
      ),
    )),
    ...(await Promise.all(
      secrets.results.map(async (row) =>
        env.DB.prepare('UPDATE hosted_secrets SET sealed_value = ?1 WHERE address = ?2 AND name = ?3 AND sealed_value = ?4').bind(
          await vault.sealWithCurrent(row.sealed),
          row.address,
          row.name,
          row.sealed,
        ),
      ),
    )),
  ];
  if (statements.length > 0) await env.DB.batch(statements);
  return { seeds: seeds.results.length, secrets: secrets.results.length };
}
