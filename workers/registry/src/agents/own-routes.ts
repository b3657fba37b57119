import { Hono } from 'hono';
import { requireKey } from '../../../../lib/auth/index.ts';
import type { AgentFunction } from '../../../../schemas/registry.ts';
import type { OwnAgents } from '../../../../schemas/own-agents.ts';
import type { RegistryApp } from '../app.ts';
import { detailAuthFailure, detailOnError } from '../http/detail.ts';
import type { AgentStatus } from './status.ts';

/** More than any operator runs; the list is read whole by callers that cache it. */
const OWN_AGENTS_MAX = 1000;

interface OwnAgentRow {
  address: string;
  name: string;
  status: AgentStatus;
  functions: string;
}

function functionsOf(text: string): AgentFunction[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? (parsed as AgentFunction[]) : [];
  } catch {
    return [];
  }
}

/**
 * `GET /v2/agents`: the agents registered under the calling key's account, and only those. A key's holder
 * learns nothing of other tenants; the router uses it to send users' questions only to its operator's agents.
 */
export function ownAgentRoutes() {
  const app = new Hono<RegistryApp>();
  app.onError(detailOnError);
  app.get('/', requireKey(['read', 'write'], detailAuthFailure), async (c) => {
    const { results } = await c.env.DB.prepare('SELECT address, name, status, functions FROM agents WHERE account_id = ? ORDER BY rowid LIMIT ?')
      .bind(c.get('key').accountId, OWN_AGENTS_MAX)
      .all<OwnAgentRow>();
    const body: OwnAgents = { agents: results.map((row) => ({ address: row.address, name: row.name, status: row.status, functions: functionsOf(row.functions) })) };
    return c.json(body);
  });
  return app;
}
