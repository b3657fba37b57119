import { z } from 'zod';
import {
  agentCodeSchema,
  agentLogSchema,
  codeDigestSchema,
  hostedAgentPageSchema,
  hostedAgentSchema,
  secretListSchema,
  secretSchema,
  storagePageSchema,
  type AgentCode,
  type AgentLog,
  type CodeFile,
  type HostedAgent,
  type HostedAgentSummary,
  type StoragePage,
} from '../../../schemas/hosting.ts';
import { REGISTRY_URL } from './config.ts';
import { bearer, requestJson } from './http.ts';

/** The hosting API under the registry's base URL (it forwards /v1/hosting to the hosting Worker). */
const BASE = `${REGISTRY_URL}/v1/hosting`;
const agentUrl = (address: string) => `${BASE}/agents/${encodeURIComponent(address)}`;

export async function listHosted(token: string): Promise<HostedAgentSummary[]> {
  return (await requestJson(`${BASE}/agents`, { headers: bearer(token) }, hostedAgentPageSchema)).items;
}

export function createHosted(token: string, name: string, readme: string): Promise<HostedAgent> {
  return requestJson(
    `${BASE}/agents`,
    { method: 'POST', headers: bearer(token), body: JSON.stringify({ name, readme }) },
    hostedAgentSchema,
  );
}

export function getHosted(token: string, address: string): Promise<HostedAgent> {
  return requestJson(agentUrl(address), { headers: bearer(token) }, hostedAgentSchema);
}

export function getCode(token: string, address: string): Promise<AgentCode> {
  return requestJson(`${agentUrl(address)}/code`, { headers: bearer(token) }, agentCodeSchema);
}

/** Saves the agent's files as Agentverse takes code: a string holding the JSON list of files. */
export async function saveCode(token: string, address: string, files: CodeFile[]): Promise<string> {
  const code = JSON.stringify(files);
  return (
    await requestJson(
      `${agentUrl(address)}/code`,
      { method: 'PUT', headers: bearer(token), body: JSON.stringify({ code }) },
      codeDigestSchema,
    )
  ).digest;
}

export function lifecycle(token: string, address: string, action: 'start' | 'stop' | 'restart'): Promise<HostedAgent> {
  return requestJson(`${agentUrl(address)}/${action}`, { method: 'POST', headers: bearer(token) }, hostedAgentSchema);
}

export function latestLogs(token: string, address: string): Promise<AgentLog[]> {
  return requestJson(`${agentUrl(address)}/logs/latest`, { headers: bearer(token) }, z.array(agentLogSchema));
}

export function storage(token: string, address: string): Promise<StoragePage> {
  return requestJson(`${agentUrl(address)}/storage`, { headers: bearer(token) }, storagePageSchema);
}

export async function secrets(token: string, address: string): Promise<z.infer<typeof secretListSchema>['secrets']> {
  return (await requestJson(`${BASE}/${encodeURIComponent(address)}/secrets`, { headers: bearer(token) }, secretListSchema)).secrets;
}

export function setSecret(token: string, address: string, name: string, secret: string) {
  return requestJson(
    `${BASE}/secrets`,
    { method: 'POST', headers: bearer(token), body: JSON.stringify({ address, name, secret }) },
    secretSchema,
  );
}
