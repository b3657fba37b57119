import { applyD1Migrations, env, SELF } from 'cloudflare:test';
import { Identity } from '../../lib/identity/index.ts';
import { signVerifiableModel } from '../../lib/registry-client/index.ts';
import type { CreatedKey, Permission } from '../../schemas/keys.ts';

export const BASE = 'http://registry.test';
export const ADMIN_TOKEN = 'test-admin-token';

export async function migrate() {
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
}

export function api(path: string, init: RequestInit & { json?: unknown; token?: string | null } = {}) {
  const headers = new Headers(init.headers);
  if (init.json !== undefined) headers.set('content-type', 'application/json');
  if (init.token) headers.set('authorization', `Bearer ${init.token}`);
  return SELF.fetch(`${BASE}${path}`, { ...init, headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.body });
}

export async function json<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

/** A key of a new account, created with the admin token. */
export async function newKey(
  permissions: Permission[] = ['read', 'write', 'chat', 'keys'],
  extra: Record<string, unknown> = {},
): Promise<CreatedKey> {
  const response = await api('/v1/keys', { method: 'POST', token: ADMIN_TOKEN, json: { name: 'test', permissions, ...extra } });
  if (response.status !== 201) throw new Error(`key creation failed: ${response.status} ${await response.text()}`);
  return json<CreatedKey>(response);
}

/** Proves `identity` for the key's account the way uagents-core does: challenge, then its signature. */
export async function prove(identity: Identity, token: string) {
  const issued = await api(`/v2/identity/${identity.address}/challenge`, { token });
  const { challenge } = await json<{ challenge: string }>(issued);
  return api('/v2/identity', {
    method: 'POST',
    token,
    json: { address: identity.address, challenge, challenge_response: identity.sign(challenge) },
  });
}

export function registrationBody(identity: Identity, overrides: Record<string, unknown> = {}) {
  return {
    address: identity.address,
    name: 'Test agent',
    handle: null,
    url: 'https://agents.example.com/webhook',
    agent_type: 'custom',
    profile: { description: 'test', readme: '# Test agent', avatar_url: '', starter_prompts: [] },
    endpoints: [{ url: 'https://agents.example.com/webhook', weight: 1 }],
    protocols: [],
    metadata: null,
    ...overrides,
  };
}

/** Proves and registers an agent; returns the response of POST /v2/agents. */
export async function registered(identity: Identity, token: string, overrides: Record<string, unknown> = {}) {
  const proof = await prove(identity, token);
  if (proof.status !== 200) throw new Error(`proof failed: ${proof.status} ${await proof.text()}`);
  return api('/v2/agents', { method: 'POST', token, json: registrationBody(identity, overrides) });
}

export function statusUpdate(identity: Identity, isActive: boolean, timestamp = Math.floor(Date.now() / 1000)) {
  return signVerifiableModel(identity, { agent_identifier: identity.address, is_active: isActive, timestamp });
}

/** A fresh identity per call, so tests in one file do not share addresses. */
let counter = 0;
export function freshIdentity(): Identity {
  counter += 1;
  return Identity.fromSeed(`registry test ${crypto.randomUUID()} ${counter}`, 0);
}
