import type { AgentReader, AgentWriter } from '../shards/shard-set.ts';

/**
 * Registry-wide handle claims (agent_handles on the home database, migration 0018, docs/decisions/0204). The
 * claim is made before the agent row is written, and its primary key decides a race: of two registrations
 * asking for one handle at once, whatever shards their agents land on, one claim is inserted, the other finds
 * the handle held. A write that fails releases a claim it made; a write that succeeds releases the agent's
 * other handles.
 */
export type Claim = { ok: true; fresh: boolean } | { ok: false };

export async function claimHandle(home: AgentWriter, handle: string, address: string, now: string): Promise<Claim> {
  // One batch is one transaction: the holder read sees the insert's outcome, never another request's half.
  const [inserted, holder] = await home.batch<{ address: string }>([
    home
      .prepare('INSERT INTO agent_handles (handle, address, claimed_at) VALUES (?1, ?2, ?3) ON CONFLICT (handle) DO NOTHING')
      .bind(handle, address, now),
    home.prepare('SELECT address FROM agent_handles WHERE handle = ?1').bind(handle),
  ]);
  if (holder!.results[0]?.address !== address) return { ok: false };
  return { ok: true, fresh: inserted!.meta.changes > 0 };
}

/** Undoes a fresh claim whose agent write failed. */
export async function releaseClaim(home: AgentWriter, handle: string, address: string): Promise<void> {
  await home.prepare('DELETE FROM agent_handles WHERE handle = ?1 AND address = ?2').bind(handle, address).run();
}

/** After an agent's write: every claim of the address but the handle it now holds (all of them for null). */
export async function releaseOtherHandles(home: AgentWriter, address: string, kept: string | null): Promise<void> {
  await home.prepare('DELETE FROM agent_handles WHERE address = ?1 AND handle IS NOT ?2').bind(address, kept).run();
}

/**
 * The address that claimed a handle: one read on home, whatever the shard count. A claim whose write failed
 * and whose release did not run names an agent that does not hold the handle: callers check the agent's row.
 */
export async function handleClaimant(home: AgentReader, handle: string): Promise<string | null> {
  const claim = await home.prepare('SELECT address FROM agent_handles WHERE handle = ?').bind(handle).first<{ address: string }>();
  return claim?.address ?? null;
}
