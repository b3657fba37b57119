import type { AgentUpdate, RegistrationRequest, RegistrationResponse } from '../../../../schemas/registry.ts';
import { ownerOf, proveIdentity } from '../identity/ownership.ts';
import { analyzeReadme } from './readme.ts';
import { toAgentDetail } from './record.ts';
import type { AgentRow } from './row.ts';
import { ensureAccountOnShard } from '../shards/account-stub.ts';
import type { ShardSet } from '../shards/shard-set.ts';
import { claimHandle, releaseClaim, releaseOtherHandles } from './handle-claims.ts';
import { type AgentState, emptyState, findAgent, saveAgent, stateOf } from './store.ts';

type Refusal = { ok: false; status: 401 | 403 | 404 | 409; detail: string };
type Saved = { ok: true; created: boolean; body: RegistrationResponse };

/** The change an update body asks for, applied over the agent's current state. */
function applyUpdate(base: AgentState, update: AgentUpdate): AgentState {
  const readme = update.profile?.readme ?? update.readme ?? base.readme;
  return {
    ...base,
    name: update.name ?? base.name,
    handle: update.handle ?? base.handle,
    url: update.url ?? base.url,
    endpoints: update.endpoints ?? base.endpoints,
    readme,
    readmeAnalysis: analyzeReadme(readme),
    protocols: update.protocols ?? base.protocols,
    profile: {
      description: update.profile?.description ?? update.short_description ?? base.profile.description,
      avatar_url: update.profile?.avatar_url ?? update.avatar_url ?? base.profile.avatar_url,
      banner_url: update.profile?.banner_url ?? base.profile.banner_url,
      starter_prompts: update.profile?.starter_prompts ?? base.profile.starter_prompts,
    },
    metadata: update.metadata ?? base.metadata,
    agentType: update.agent_type ?? base.agentType,
    geoLocation: update.geo_location ?? base.geoLocation,
    isPublic: update.public ?? base.isPublic,
  };
}

const handleTaken = (handle: string | null): Refusal => ({
  ok: false,
  status: 409,
  detail: `handle "${handle}" is taken by another agent`,
});

/**
 * Writes the agent to its shard. Its handle is claimed on home first (handle-claims.ts): a claim another agent
 * holds refuses the write; a failed write releases the claim it made; a saved write releases the agent's
 * other handles, so a changed handle is free again.
 */
async function save(
  shards: ShardSet,
  address: string,
  accountId: string,
  state: AgentState,
  previous: AgentRow | null,
): Promise<Saved | Refusal> {
  const db = shards.owner(address);
  const now = new Date().toISOString();
  const claim = state.handle ? await claimHandle(shards.homeWriter(), state.handle, address, now) : null;
  if (claim && !claim.ok) return handleTaken(state.handle);
  // An agent known only from an almanac attestation becomes registered now: for its owner that is a creation.
  const created = previous === null || previous.account_id === null;
  try {
    if (created && shards.ownerIndex(address) !== 0) await ensureAccountOnShard(shards.home, db, accountId);
    await saveAgent(db, address, accountId, state, previous, now);
  } catch (error) {
    if (claim?.fresh) await releaseClaim(shards.homeWriter(), state.handle!, address);
    // An agent row written without a claim (before migration 0018's backfill ran, or seeded by hand) holds it.
    if (/UNIQUE constraint failed: agents\.handle/.test(String((error as Error).message))) return handleTaken(state.handle);
    throw error;
  }
  await releaseOtherHandles(shards.homeWriter(), address, state.handle);
  const row = await findAgent(db, address);
  if (!row) throw new Error(`agent ${address} vanished after saving`);
  return { ok: true, created, body: { success: true, created, agent: toAgentDetail(row), readme: state.readmeAnalysis } };
}

/**
 * POST /v2/agents: create or replace an agent of an address the caller's account proved (beforehand via
 * /v2/identity, or inline with `challenge` + `challenge_response` as older SDKs send). Identities are on the
 * home database; the agent is written to the shard that owns its address.
 */
export async function register(shards: ShardSet, accountId: string, request: RegistrationRequest): Promise<Saved | Refusal> {
  const { address } = request;
  if (request.challenge && request.challenge_response) {
    const proof = await proveIdentity(
      shards.home,
      { address, challenge: request.challenge, challenge_response: request.challenge_response },
      accountId,
    );
    if (!proof.ok) return proof;
  }
  const owner = await ownerOf(shards.home, address);
  if (owner && owner !== accountId) return { ok: false, status: 409, detail: `address ${address} is owned by another account` };
  if (!owner) {
    return {
      ok: false,
      status: 403,
      detail: `prove you hold ${address} first: GET /v2/identity/${address}/challenge, sign it, POST /v2/identity`,
    };
  }
  const previous = await findAgent(shards.owner(address), address);
  // An attestation-only agent was kept unlisted; its first registration by an account lists it like a new one.
  const base = previous?.account_id ? stateOf(previous) : { ...(previous ? stateOf(previous) : emptyState()), isPublic: true };
  const state = applyUpdate(base, {
    name: request.name,
    handle: request.handle,
    url: request.url ?? request.endpoint,
    readme: request.readme,
    profile: request.profile,
    agent_type: request.agent_type,
    endpoints: request.endpoints,
    protocols: request.protocols,
    metadata: request.metadata,
    geo_location: request.geo_location,
  });
  return save(shards, address, accountId, state, previous);
}

/** PUT / PATCH /v2/agents/{address}: change some fields of the caller's own agent. */
export async function update(shards: ShardSet, accountId: string, address: string, changes: AgentUpdate): Promise<Saved | Refusal> {
  const previous = await findAgent(shards.owner(address), address);
  if (!previous || previous.account_id === null) return { ok: false, status: 404, detail: `agent ${address} is not registered` };
  if (previous.account_id !== accountId) return { ok: false, status: 409, detail: `agent ${address} belongs to another account` };
  return save(shards, address, accountId, applyUpdate(stateOf(previous), changes), previous);
}
