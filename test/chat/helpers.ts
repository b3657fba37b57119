import { env, SELF } from 'cloudflare:test';
import OpenAI from 'openai';

export const LLM_BASE_URL = 'http://chat.test/v1';

const ADMIN = { authorization: 'Bearer test-admin-token', 'content-type': 'application/json' };

/** A fresh registry key (in a new account) made through the registry's public key API with the admin token. */
export async function createKey(
  options: { permissions?: string[]; limits?: { requests_per_minute?: number; tokens_per_minute?: number }; accountId?: string } = {},
): Promise<{ id: string; key: string; account_id: string }> {
  const response = await env.REGISTRY_API.fetch('http://registry.test/v1/keys', {
    method: 'POST',
    headers: ADMIN,
    body: JSON.stringify({
      name: 'chat test',
      permissions: options.permissions ?? ['chat', 'read'],
      limits: options.limits,
      account_id: options.accountId,
    }),
  });
  if (response.status !== 201) throw new Error(`creating a key failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as { id: string; key: string; account_id: string };
}

/** The operator features (verifies) an agent: PUT /v1/featured-agents/{address} with the admin token. */
export async function feature(address: string): Promise<void> {
  const response = await env.REGISTRY_API.fetch(`http://registry.test/v1/featured-agents/${address}`, { method: 'PUT', headers: ADMIN });
  if (!response.ok) throw new Error(`featuring ${address} failed: ${response.status} ${await response.text()}`);
}

export async function revokeKey(id: string): Promise<void> {
  const response = await env.REGISTRY_API.fetch(`http://registry.test/v1/keys/${id}`, { method: 'DELETE', headers: ADMIN });
  if (!response.ok) throw new Error(`revoking a key failed: ${response.status} ${await response.text()}`);
}

/** Changes a key's limits through the registry's public key API (PATCH /v1/keys/{id}). */
export async function changeLimits(id: string, limits: { requests_per_minute?: number; tokens_per_minute?: number } | null): Promise<void> {
  const response = await env.REGISTRY_API.fetch(`http://registry.test/v1/keys/${id}`, {
    method: 'PATCH',
    headers: ADMIN,
    body: JSON.stringify({ limits }),
  });
  if (!response.ok) throw new Error(`changing a key's limits failed: ${response.status} ${await response.text()}`);
}

/** The official openai SDK, unchanged, pointed at the chat Worker ({llm_base_url}). */
export function openai(apiKey: string): OpenAI {
  return new OpenAI({
    apiKey,
    baseURL: LLM_BASE_URL,
    maxRetries: 0,
    fetch: (input, init) => SELF.fetch(input as RequestInfo, init as RequestInit),
  });
}

/** A raw call to the chat API, for what the SDK hides (headers, bodies of errors). */
export function post(path: string, apiKey: string | null, body: unknown, extraHeaders: Record<string, string> = {}): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json', ...extraHeaders };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  return SELF.fetch(`${LLM_BASE_URL}${path}`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
}

/** The fake upstream (test/chat/fake-upstream), reached like the chat Worker reaches it. */
export function upstream(path: string, init?: RequestInit): Promise<Response> {
  return fetch(`http://upstream.test${path}`, init);
}

/** The data lines of a server-sent event body, parsed (the final [DONE] kept as a string). */
export async function readEvents(response: Response): Promise<unknown[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => block.slice('data: '.length))
    .map((data) => (data === '[DONE]' ? data : JSON.parse(data)));
}
