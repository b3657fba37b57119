import { vi } from 'vitest';
import { parseEnvelope, verifyEnvelope, MemoryReplayGuard } from '../../../lib/envelope/index.ts';
import type { Envelope } from '../../../schemas/envelope.ts';
import type { AlmanacRecord } from '../../../schemas/registry.ts';
import { registrationResponse, type Registration } from './fake-registry.ts';

const SPECIALIST_WEBHOOK = 'http://specialist.test/webhook';

export interface FakeNetwork {
  /** Addresses the fake registry's search returns, in order. */
  registered: string[];
  /** Every search body the router sent, and with which Authorization header. */
  searches: { body: unknown; authorization: string | null }[];
  /** Envelopes delivered to the specialist's webhook, verified and decoded. */
  delivered: { envelope: Envelope; payload: unknown }[];
  /** Status the registry search answers with (200 by default). */
  searchStatus: number;
  /** How many of the next searches answer 503 (a registry that is restarting). */
  searchOutages: number;
  /** Agents that registered themselves (`POST /v2/agents`). */
  registrations: Registration[];
  /** Status the specialist's webhook answers with (200 by default; 400 refuses every message). */
  specialistStatus: number;
  /** Webhooks of agents other than the specialist (a decoy's dead loopback port, a lookalike's live one). */
  webhooks: Map<string, string>;
  /** Registered agents of other accounts: in search results, not in the router's own-agents list. */
  tenants: Set<string>;
  /** Registry status per agent (`local` when absent, as on a laptop). */
  statuses: Map<string, 'active' | 'offline' | 'local'>;
  /** Own agents whose README declares no `request` parameter. */
  withoutPayload: Set<string>;
  /** Envelopes a lookalike's live webhook received (the router must never send it one). */
  lookalikeInbox: Envelope[];
}

/** A live webhook of another tenant's agent, in the fake network. */
export const LOOKALIKE_WEBHOOK = 'http://lookalike.test/webhook';
/** A loopback port nobody listens on: the real network refuses the connection. */
export const DEAD_WEBHOOK = 'http://127.0.0.1:9/webhook';

/**
 * Replaces the network the router sees (its outbound fetch) with a registry that knows `registered` and a
 * specialist webhook that records what it receives. The router's code runs unchanged; only its peers are fake.
 */
export function installFakeNetwork(specialistAddress: string): FakeNetwork {
  const network: FakeNetwork = {
    registered: [],
    searches: [],
    delivered: [],
    searchStatus: 200,
    searchOutages: 0,
    registrations: [],
    specialistStatus: 200,
    webhooks: new Map(),
    tenants: new Set(),
    statuses: new Map(),
    withoutPayload: new Set(),
    lookalikeInbox: [],
  };
  const replay = new MemoryReplayGuard();
  const realFetch = globalThis.fetch;
  const status = (address: string) => network.statuses.get(address) ?? 'local';
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.hostname === '127.0.0.1') return realFetch(request);
    if (request.url === LOOKALIKE_WEBHOOK) {
      const parsed = parseEnvelope(await request.text());
      if (parsed.ok) network.lookalikeInbox.push(parsed.envelope);
      return Response.json({ status: 'analysis_sent' });
    }
    if (url.host === 'registry.test' && request.method === 'GET' && url.pathname === '/v2/agents') {
      const request = {
        name: 'payload',
        description: 'question',
        parameters: [{ name: 'request', description: 'the question', required: true }],
      };
      const agents = network.registered
        .filter((address) => !network.tenants.has(address))
        .map((address) => ({
          address,
          name: 'agent',
          status: status(address),
          functions: network.withoutPayload.has(address) ? [] : [request],
        }));
      return Response.json({ agents });
    }
    if (url.host === 'registry.test' && url.pathname === '/v1/search/agents') {
      network.searches.push({ body: await request.json(), authorization: request.headers.get('Authorization') });
      if (network.searchOutages > 0) {
        network.searchOutages--;
        return Response.json({ error: { message: 'restarting' } }, { status: 503 });
      }
      if (network.searchStatus !== 200) return Response.json({ error: { message: 'refused' } }, { status: network.searchStatus });
      const agents = network.registered.map((address) => ({ address, status: status(address) }));
      return Response.json({ agents, offset: 0, limit: 5, num_hits: agents.length, total: agents.length, search_id: crypto.randomUUID() });
    }
    if (url.host === 'registry.test' && request.method === 'GET' && url.pathname.startsWith('/v1/almanac/agents/')) {
      const address = url.pathname.split('/').at(-1)!;
      if (!network.registered.includes(address)) return Response.json({ detail: 'agent not found' }, { status: 404 });
      const webhook = network.webhooks.get(address) ?? SPECIALIST_WEBHOOK;
      const record: AlmanacRecord = {
        address,
        name: 'Specialist',
        status: status(address) === 'active' ? 'active' : 'offline',
        url: webhook,
        endpoints: [{ url: webhook, weight: 1 }],
        protocols: [],
        metadata: null,
        domain_name: null,
        type: 'custom',
        expiry: new Date(Date.now() + 86_400_000).toISOString(),
        last_updated: new Date().toISOString(),
        registered: true,
      };
      return Response.json(record);
    }
    // Registration as lib/registry-client performs it: the agent is known already, so details and status only.
    if (url.host === 'registry.test' && request.method === 'GET' && url.pathname.startsWith('/v2/agents/')) return Response.json({});
    if (url.host === 'registry.test' && request.method === 'POST' && url.pathname === '/v2/agents') {
      const body = (await request.json()) as { address: string; name: string; url: string; profile: { readme: string } };
      const registration = {
        address: body.address,
        name: body.name,
        url: body.url,
        readme: body.profile.readme,
        authorization: request.headers.get('Authorization'),
      };
      network.registrations.push(registration);
      return Response.json(registrationResponse(registration));
    }
    if (url.host === 'registry.test' && request.method === 'POST' && /^\/v1\/almanac\/agents\/[^/]+\/status$/.test(url.pathname)) {
      return Response.json({ address: url.pathname.split('/')[4], is_active: true, status: 'local' });
    }
    if (url.host === 'registry.test' && request.method === 'POST' && url.pathname === '/v2/agents/interactions')
      return Response.json({ status: 'recorded' });
    if (request.url === SPECIALIST_WEBHOOK) {
      if (network.specialistStatus !== 200)
        return Response.json({ status: 'error', message: 'refused by the test' }, { status: network.specialistStatus });
      const parsed = parseEnvelope(await request.text());
      if (!parsed.ok) return Response.json({ status: 'error', message: parsed.message }, { status: 400 });
      const verified = await verifyEnvelope(parsed.envelope, { self: specialistAddress, replay });
      if (!verified.ok) return Response.json({ status: 'error', message: verified.message }, { status: 400 });
      network.delivered.push({ envelope: parsed.envelope, payload: verified.payload });
      return Response.json({ status: 'analysis_sent' });
    }
    return new Response('no such host in the fake network', { status: 502 });
  });
  return network;
}
