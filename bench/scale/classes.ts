import { Identity } from '../../lib/identity/index.ts';
import { createAttestation } from '../../lib/registry-client/attestation.ts';
import type { AgentSearchRequest, FunctionSearchRequest } from '../../schemas/search.ts';

/**
 * The query classes the scale bench times through the registry Worker. Search classes also run raw
 * (the same search code on better-sqlite3) and have their query plans printed; the others are one HTTP route each.
 */
export interface BenchContext {
  base: string;
  /** A key with read, write and keys permissions. */
  token: string;
  /** Addresses of seeded agents, spread over the registry. */
  addresses: string[];
}

export interface QueryClass {
  name: string;
  /** Agent search bodies (timed through the Worker and raw, plans shown). */
  searches?: AgentSearchRequest[];
  /** Also time the raw search with every match ranked and counted (no search bounds): the peer of the bounded path. */
  unboundedPeer?: boolean;
  /** Any other call, given the round number: the milliseconds its timed request took. */
  call?: (context: BenchContext, round: number) => Promise<number>;
}

/** One request, timed to its body's end; anything but a 2xx stops the bench. */
async function timedFetch(url: string, init?: RequestInit): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, init);
  const body = await response.text();
  const elapsed = performance.now() - started;
  if (response.status >= 300) throw new Error(`${init?.method ?? 'GET'} ${url} answered ${response.status}: ${body.slice(0, 300)}`);
  return elapsed;
}

const json = (token: string | null, body: unknown): RequestInit => ({
  method: 'POST',
  headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

const FUNCTION_SEARCHES: FunctionSearchRequest[] = [{ search_text: 'city' }, { search_text: 'amount currency' }, { search_text: 'date' }];
/** Words in up to a third of all agents (the generated corpus). */
const COMMON_WORDS = ['agent', 'data', 'api', 'service'];
const source = Identity.fromSeed('scale bench interaction source', 0);

/** Only the click is timed: the search before it is the caller's previous request. */
async function clickOn(context: BenchContext, round: number): Promise<number> {
  const search = await fetch(
    `${context.base}/v1/search/agents`,
    json(context.token, { search_text: ['weather', 'hotel', 'crypto'][round % 3] }),
  );
  const { search_id, agents } = (await search.json()) as { search_id: string; agents: { address: string }[] };
  // The session is stored after the search's response (waitUntil); the click names it.
  await new Promise((resolve) => setTimeout(resolve, 20));
  const address = agents[round % Math.max(1, agents.length)]?.address ?? context.addresses[0]!;
  return timedFetch(`${context.base}/v1/search/agents/click`, json(context.token, { search_id, page_index: 0, address }));
}

export const QUERY_CLASSES: QueryClass[] = [
  { name: 'common word', searches: COMMON_WORDS.map((search_text) => ({ search_text })), unboundedPeer: true },
  {
    name: 'common word (lexical)',
    searches: COMMON_WORDS.map((search_text) => ({ search_text, semantic_search: false })),
    unboundedPeer: true,
  },
  {
    name: 'typical text',
    searches: ['weather', 'stock analysis', 'transl', 'wether forcast', 'find an agent that tracks my parcel'].map((search_text) => ({
      search_text,
    })),
  },
  {
    name: 'filter-only sorted',
    searches: [
      { sort: 'interactions' },
      { sort: 'last-modified' },
      { sort: 'created-at' },
      {},
      { filters: { category: ['fetch-ai'] }, sort: 'interactions' },
      { filters: { agent_type: ['hosted'] }, sort: 'last-modified' },
    ],
  },
  {
    name: 'almanac lookup',
    call: (context, round) => timedFetch(`${context.base}/v1/almanac/agents/${context.addresses[round % context.addresses.length]}`),
  },
  // The almanac's peer: the Worker's and the runtime's cost of a request that reads nothing.
  { name: 'runtime floor', call: (context) => timedFetch(`${context.base}/health`) },
  {
    name: 'agent detail',
    call: (context, round) =>
      timedFetch(`${context.base}/v2/agents/${context.addresses[(round * 7) % context.addresses.length]}`, {
        headers: { authorization: `Bearer ${context.token}` },
      }),
  },
  {
    name: 'function search',
    call: (context, round) =>
      timedFetch(`${context.base}/v1/search/functions`, json(context.token, FUNCTION_SEARCHES[round % FUNCTION_SEARCHES.length])),
  },
  { name: 'click feedback', call: clickOn },
  {
    name: 'interaction count',
    call: (context, round) =>
      timedFetch(`${context.base}/v2/agents/interactions`, {
        method: 'POST',
        headers: { authorization: `Agent ${createAttestation(source)}`, 'content-type': 'application/json' },
        body: JSON.stringify({ target: context.addresses[(round * 13) % context.addresses.length] }),
      }),
  },
  {
    name: 'key check',
    call: (context) => timedFetch(`${context.base}/v1/keys`, { headers: { authorization: `Bearer ${context.token}` } }),
  },
];
