import type { z } from 'zod';
import {
  apiKeySchema,
  createdKeySchema,
  keyListSchema,
  revokedKeySchema,
  type ApiKey,
  type CreatedKey,
  type CreateKeyRequest,
  type RevokedKey,
  type UpdateKeyRequest,
} from '../../../schemas/keys.ts';
import { mailboxStatusSchema, type MailboxStatus } from '../../../schemas/mailbox.ts';
import { agentDetailSchema, type AgentDetail } from '../../../schemas/registry.ts';
import {
  type agentSearchRequestSchema,
  agentSearchResponseSchema,
  searchClickResponseSchema,
  type AgentSearchResponse,
  type SearchClickRequest,
  type SearchClickResponse,
} from '../../../schemas/search.ts';
import { REGISTRY_URL } from './config.ts';
import { ApiError, bearer, requestJson } from './http.ts';

/** The registry's public API, typed by its wire schemas. */

export type AgentSearchInput = z.input<typeof agentSearchRequestSchema>;

export function searchAgents(token: string, request: AgentSearchInput, signal?: AbortSignal): Promise<AgentSearchResponse> {
  return requestJson(
    `${REGISTRY_URL}/v1/search/agents`,
    { method: 'POST', headers: bearer(token), body: JSON.stringify(request), signal },
    agentSearchResponseSchema,
  );
}

export function sendClick(token: string, click: SearchClickRequest): Promise<SearchClickResponse> {
  return requestJson(
    `${REGISTRY_URL}/v1/search/agents/click`,
    { method: 'POST', headers: bearer(token), body: JSON.stringify(click) },
    searchClickResponseSchema,
  );
}

export function getAgent(token: string, address: string): Promise<AgentDetail> {
  return requestJson(`${REGISTRY_URL}/v2/agents/${encodeURIComponent(address)}`, { headers: bearer(token) }, agentDetailSchema);
}

/** What waits in a mailbox agent's inbox; null when the key's account does not own the agent (403) or it has no mailbox (404). */
export async function getMailboxStatus(token: string, address: string): Promise<MailboxStatus | null> {
  try {
    return await requestJson(
      `${REGISTRY_URL}/v2/agents/${encodeURIComponent(address)}/mailbox/status`,
      { headers: bearer(token) },
      mailboxStatusSchema,
    );
  } catch (error) {
    if (error instanceof ApiError && (error.status === 403 || error.status === 404)) return null;
    throw error;
  }
}

export async function listKeys(token: string): Promise<ApiKey[]> {
  return (await requestJson(`${REGISTRY_URL}/v1/keys`, { headers: bearer(token) }, keyListSchema)).keys;
}

export function createKey(token: string, request: CreateKeyRequest): Promise<CreatedKey> {
  return requestJson(
    `${REGISTRY_URL}/v1/keys`,
    { method: 'POST', headers: bearer(token), body: JSON.stringify(request) },
    createdKeySchema,
  );
}

/** Renames a key or changes its limits (`limits: null`: the deployment's defaults); answers the key as it now is. */
export function updateKey(token: string, id: string, request: UpdateKeyRequest): Promise<ApiKey> {
  return requestJson(
    `${REGISTRY_URL}/v1/keys/${encodeURIComponent(id)}`,
    { method: 'PATCH', headers: bearer(token), body: JSON.stringify(request) },
    apiKeySchema,
  );
}

export function revokeKey(token: string, id: string): Promise<RevokedKey> {
  return requestJson(`${REGISTRY_URL}/v1/keys/${encodeURIComponent(id)}`, { method: 'DELETE', headers: bearer(token) }, revokedKeySchema);
}
