import { Hono } from 'hono';
import type { OwnAgents } from '../../../../schemas/own-agents.ts';
import type { RegistryApp } from '../app.ts';
import { speaksDetail } from '../http/detail.ts';
import { requireKey } from '../keys/require-key.ts';
import { agentColumns } from './columns.ts';
import type { AgentRow } from './row.ts';

/** More than any operator runs; the list is read whole by callers that cache it. */
const OWN_AGENTS_MAX = 1000;

/**
 * `GET /v2/agents`: the agents registered under the calling key's account, and only those. A key's holder
 * learns nothing of other tenants; the router uses it to send users' questions only to its operator's agents.
 */
export function ownAgentRoutes() {
  const app = new Hono<RegistryApp>();
  app.use('*', speaksDetail);
  app.get('/', requireKey(['read', 'write']), async (c) => {
    // Each shard's agents of the account in registration order, shard after shard (one shard: as registered).
    const pages = await Promise.all(
      c.var
        .shards()
        .sessions()
        .map((db) =>
          db
            .prepare('SELECT address, name, status, functions FROM agents WHERE account_id = ? ORDER BY rowid LIMIT ?')
            .bind(c.get('key').accountId, OWN_AGENTS_MAX)
            .all<Pick<AgentRow, 'address' | 'name' | 'status' | 'functions'>>(),
        ),
    );
    const results = pages.flatMap((page) => page.results).slice(0, OWN_AGENTS_MAX);
    const agents = results.map((row) => ({
      address: row.address,
      name: row.name,
      status: agentColumns.status(row.status),
      functions: agentColumns.functions(row.functions),
    }));
    return c.json<OwnAgents>({ agents });
  });
  return app;
}
