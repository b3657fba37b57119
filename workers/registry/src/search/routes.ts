import { Hono } from 'hono';
import { ApiError } from '../../../../lib/http/api-error.ts';
import { validate } from '../../../../lib/http/validate.ts';
import {
  agentSearchRequestSchema,
  functionSearchRequestSchema,
  SEARCH_LIMIT_DEFAULT,
  searchClickRequestSchema,
  type AgentSearchResponse,
  type FunctionSearchResponse,
  type SearchClickResponse,
} from '../../../../schemas/search.ts';
import { toAgentRecord } from '../agents/record.ts';
import { recordClick } from './clicks.ts';
import { functionCandidates, searchBounds } from './search-bounds.ts';
import { keyedRunner } from './keyed-runner.ts';
import { searchFunctions } from './function-search.ts';
import { syncEmbeddings } from './semantic.ts';
import { semanticRequested } from './semantic-default.ts';
import { semanticSource } from './semantic-source.ts';
import { newSession, storeSession } from './sessions.ts';
import { d1Runner } from './sql-runner.ts';
import { queryKey } from './text/tokenize.ts';
import type { RegistryApp } from '../app.ts';
import { requireKeyInBatch } from '../keys/batched-key.ts';
import { requireKey } from '../keys/require-key.ts';
import { fanOutFunctions } from '../shards/fan-out-functions.ts';
import { searchShards } from '../shards/search-shards.ts';

/** `/v1/search/*`: agent search, click feedback, function search. All need a key with read permission. */
export function searchRoutes() {
  const app = new Hono<RegistryApp>();
  const readKey = requireKey('read');

  // The hot path: the key is read in the search's first batch, not in a round trip of its own.
  app.post('/agents', requireKeyInBatch('read'), validate('json', agentSearchRequestSchema), async (c) => {
    const request = c.req.valid('json');
    const check = c.get('keyCheck');
    const shards = c.var.shards();
    const runner = keyedRunner(d1Runner(shards.home), check);
    const session = newSession(request.search_id, queryKey(request.search_text), request.source);
    const semantic = semanticRequested(request) ? semanticSource(c.env) : null;
    // A refused key throws its refusal from the first batch (keyedRunner), before any search work is done.
    const result = await searchShards(shards, runner, check, semantic, { request, ...session, bounds: searchBounds(c.env) });
    c.executionCtx.waitUntil(
      storeSession(runner, session).catch((error: unknown) => console.error('storing search session failed', error)),
    );
    const backend = semantic?.backend;
    if (backend) {
      for (const db of shards.all)
        c.executionCtx.waitUntil(
          syncEmbeddings(backend, d1Runner(db)).catch((error: unknown) => console.error('embedding sync failed', error)),
        );
    }
    c.header('x-search-mode', result.mode);
    // Read after the search: a Workers AI outage leaves only the offline source answering (semantic-source.ts).
    if (semantic && result.mode === 'hybrid') c.header('x-semantic-source', semantic.kind);
    const body: AgentSearchResponse = {
      agents: result.rows.map(toAgentRecord),
      offset: request.offset ?? 0,
      limit: request.limit ?? SEARCH_LIMIT_DEFAULT,
      num_hits: result.rows.length,
      total: result.total,
      total_is_estimate: result.totalIsEstimate,
      search_id: session.searchId,
    };
    return c.json(body);
  });

  app.post('/agents/click', readKey, validate('json', searchClickRequestSchema), async (c) => {
    const click = c.req.valid('json');
    const shards = c.var.shards();
    // Home owns the agent: the click's own batch reads the search session, one round trip (clicks.ts).
    const sessions = shards.ownerIndex(click.address) === 0 ? null : d1Runner(shards.home);
    const outcome = await recordClick(d1Runner(shards.owner(click.address)), click, c.get('key').accountId, sessions);
    if (outcome.kind === 'unknown_search')
      throw new ApiError({
        status: 404,
        message: `no search with search_id ${click.search_id}`,
        type: 'not_found',
        param: 'search_id',
        code: 'unknown_search',
      });
    if (outcome.kind === 'unknown_agent')
      throw new ApiError({
        status: 404,
        message: `no listed agent with address ${click.address}`,
        type: 'not_found',
        param: 'address',
        code: 'unknown_agent',
      });
    const body: SearchClickResponse = {
      status: 'recorded',
      search_id: click.search_id,
      address: click.address,
      page_index: click.page_index,
      duplicate: outcome.duplicate,
    };
    return c.json(body);
  });

  app.post('/functions', readKey, validate('json', functionSearchRequestSchema), async (c) => {
    const request = c.req.valid('json');
    const shards = c.var.shards();
    const runner = d1Runner(shards.home);
    const session = newSession(request.search_id, queryKey(request.search_text), request.source);
    const candidates = functionCandidates(c.env);
    const result =
      shards.all.length === 1
        ? await searchFunctions(runner, request, candidates)
        : await fanOutFunctions(shards.readers(), request, candidates);
    c.executionCtx.waitUntil(
      storeSession(runner, session).catch((error: unknown) => console.error('storing search session failed', error)),
    );
    const body: FunctionSearchResponse = {
      functions: result.functions,
      offset: request.offset ?? 0,
      limit: request.limit ?? SEARCH_LIMIT_DEFAULT,
      num_hits: result.functions.length,
      total: result.total,
      total_is_estimate: result.totalIsEstimate,
      search_id: session.searchId,
    };
    return c.json(body);
  });

  return app;
}
