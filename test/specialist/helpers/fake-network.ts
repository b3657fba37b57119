import { vi } from 'vitest';
import { MemoryReplayGuard, parseEnvelope, verifyEnvelope } from '../../../lib/envelope/index.ts';
import { Identity } from '../../../lib/identity/index.ts';
import type { Envelope } from '../../../schemas/envelope.ts';
import type { AlmanacRecord } from '../../../schemas/registry.ts';
import { registrationResponse } from '../../router/helpers/fake-registry.ts';
import { EDGAR_FILES, fullTextSearch } from './edgar-dataset.ts';

/** The router, as the specialist's tests play it: the sender of requests and the receiver of analyses. */
export const ROUTER = Identity.fromSeed('router-dev-seed', 0);
const ROUTER_WEBHOOK = 'http://router.test/webhook';

export interface ChatCall {
  body: { model: string; messages: { role: string; content: string }[]; tools?: { function: { name: string } }[] };
  authorization: string | null;
}

export interface FakeNetwork {
  /** Every EDGAR request (data, tickers, full-text search): URL, User-Agent and when it arrived. */
  edgarRequests: { url: string; userAgent: string | null; at: number }[];
  /** Answers EDGAR with this status instead of the dataset for paths that match (e.g. 503 to simulate an outage). */
  edgarFailures: { path: RegExp; status: number }[];
  /** Analyses delivered to the router's webhook, verified as the router would (signature, target, replay). */
  delivered: { envelope: Envelope; payload: unknown }[];
  chatCalls: ChatCall[];
  /** How the chat Worker answers; the default is a reply that is no use (as the offline engine's is). */
  chat: (call: ChatCall) => Response;
  tavilyCalls: { query: string; authorization: string | null }[];
  tavily: () => Response;
  registrations: { url: string; readme: string; name: string }[];
  /** The registry's almanac as the specialist looks senders up in it; the router is registered under an account. */
  almanac: Map<string, AlmanacRecord>;
  almanacLookups: string[];
  /** How long the registry takes to answer an almanac lookup (a busy registry: a burst's messages overlap it). */
  almanacDelayMs: number;
}

/** An almanac record at the router's webhook; `registered: false` is an agent no account registered. */
export function almanacRecord(address: string, registered = true): AlmanacRecord {
  return {
    address,
    name: 'Router',
    status: 'active',
    url: ROUTER_WEBHOOK,
    endpoints: [{ url: ROUTER_WEBHOOK, weight: 1 }],
    protocols: [],
    metadata: null,
    domain_name: null,
    type: 'custom',
    expiry: new Date(Date.now() + 86_400_000).toISOString(),
    last_updated: new Date().toISOString(),
    registered,
  };
}

export function chatCompletion(message: {
  content: string | null;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
}): Response {
  return Response.json({
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 0,
    model: 'llm1',
    choices: [
      { index: 0, message: { role: 'assistant', tool_calls: null, ...message }, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' },
    ],
  });
}

const OFFLINE_LIKE = () =>
  chatCompletion({ content: '[offline engine: deterministic rules, not a language model]\nI do not understand free text.' });

/**
 * Replaces the network the specialist sees (its outbound fetch): EDGAR at edgar.test / efts.test serving
 * data/edgar, the chat Worker at chat.test, Tavily, the registry at registry.test (which resolves the
 * router's address to its webhook) and the router's webhook. The specialist's code runs unchanged.
 */
export function installFakeNetwork(): FakeNetwork {
  const network: FakeNetwork = {
    edgarRequests: [],
    edgarFailures: [],
    delivered: [],
    chatCalls: [],
    chat: OFFLINE_LIKE,
    tavilyCalls: [],
    tavily: () => Response.json({ results: [] }),
    registrations: [],
    almanac: new Map([[ROUTER.address, almanacRecord(ROUTER.address)]]),
    almanacLookups: [],
    almanacDelayMs: 0,
  };
  const replay = new MemoryReplayGuard();
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.host === 'edgar.test' || url.host === 'efts.test') {
      network.edgarRequests.push({ url: request.url, userAgent: request.headers.get('User-Agent'), at: Date.now() });
      const failure = network.edgarFailures.find((f) => f.path.test(url.pathname));
      if (failure) return new Response('unavailable', { status: failure.status });
      if (url.pathname === '/LATEST/search-index')
        return Response.json(fullTextSearch(url.searchParams.get('q') ?? '', (url.searchParams.get('forms') ?? '').split(',')));
      const text = EDGAR_FILES.get(url.pathname);
      return text === undefined
        ? new Response('<Error><Code>NoSuchKey</Code></Error>', { status: 404 })
        : new Response(text, { headers: { 'Content-Type': 'application/json' } });
    }
    if (url.host === 'chat.test' && url.pathname === '/v1/chat/completions') {
      const call: ChatCall = { body: (await request.json()) as ChatCall['body'], authorization: request.headers.get('Authorization') };
      network.chatCalls.push(call);
      return network.chat(call);
    }
    if (url.host === 'api.tavily.com') {
      const body = (await request.json()) as { query: string };
      network.tavilyCalls.push({ query: body.query, authorization: request.headers.get('Authorization') });
      return network.tavily();
    }
    if (url.host === 'registry.test') {
      const almanac = /^\/v1\/almanac\/agents\/([^/]+)$/.exec(url.pathname);
      if (request.method === 'GET' && almanac) {
        network.almanacLookups.push(almanac[1]!);
        if (network.almanacDelayMs) await new Promise((resolve) => setTimeout(resolve, network.almanacDelayMs));
        const record = network.almanac.get(almanac[1]!);
        return record ? Response.json(record) : Response.json({ detail: 'agent not found' }, { status: 404 });
      }
      if (request.method === 'GET' && url.pathname.startsWith('/v2/agents/')) return Response.json({});
      if (request.method === 'POST' && url.pathname === '/v2/agents') {
        const body = (await request.json()) as { address: string; name: string; url: string; profile: { readme: string } };
        network.registrations.push({ url: body.url, readme: body.profile.readme, name: body.name });
        return Response.json(
          registrationResponse({
            address: body.address,
            name: body.name,
            url: body.url,
            readme: body.profile.readme,
            authorization: request.headers.get('Authorization'),
          }),
        );
      }
      if (request.method === 'POST' && /^\/v1\/almanac\/agents\/[^/]+\/status$/.test(url.pathname)) return Response.json({ status: 'ok' });
      if (request.method === 'POST' && url.pathname === '/v2/agents/interactions') return Response.json({ status: 'ok' });
      return Response.json({ detail: 'not found' }, { status: 404 });
    }
    if (request.url === ROUTER_WEBHOOK) {
      const parsed = parseEnvelope(await request.text());
      if (!parsed.ok) return Response.json({ error: { message: parsed.message } }, { status: 400 });
      // Every sender the almanac knows has its webhook here (a second sender's answers are verified as its own).
      const self = network.almanac.has(parsed.envelope.target) ? parsed.envelope.target : ROUTER.address;
      const verified = await verifyEnvelope(parsed.envelope, { self, replay });
      if (!verified.ok) return Response.json({ error: { message: verified.message, code: verified.reason } }, { status: 400 });
      network.delivered.push({ envelope: parsed.envelope, payload: verified.payload });
      return Response.json({ status: 'success' });
    }
    return new Response(`no such host in the fake network: ${request.url}`, { status: 502 });
  });
  return network;
}
