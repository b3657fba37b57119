import { Identity } from '../../lib/identity/index.ts';
import type { RegistrationRequest } from '../../schemas/registry.ts';
import { type CorpusAgent, generateAgents } from '../../test/registry/fixtures/corpus/generate.ts';
import { progressBar } from './progress.ts';
import { percentile } from './stats.ts';

/**
 * Registrations through the public API into the full database, as uagents-core registers: a challenge for the
 * address (GET /v2/identity/{address}/challenge), then POST /v2/agents with the challenge signed by the
 * agent's key, which the registry verifies. `concurrency` clients at a time; each agent's README, name and
 * tags come from the corpus generator (another seed, so no address repeats the seeded ones).
 */
export interface RegistrationFigures {
  count: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** Registrations started over after the runtime closed a kept-alive connection. */
  retries: number;
}

/** A keep-alive connection the Worker's runtime closed under load: the agent's registration starts over once. */
const socketClosed = (error: unknown) => (error as { cause?: { code?: string } }).cause?.code === 'UND_ERR_SOCKET';

export async function registerThroughApi(base: string, token: string, count: number, concurrency: number): Promise<RegistrationFigures> {
  const agents = generateAgents(count, 29);
  const latencies: number[] = [];
  const progress = progressBar('register (API)', count);
  let index = 0;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  let retries = 0;
  const registerOne = async (agent: CorpusAgent) => {
    const identity = Identity.fromSeed(`scale bench ${agent.address}`, 0);
    const issued = await fetch(`${base}/v2/identity/${identity.address}/challenge`, { headers });
    if (issued.status !== 200) throw new Error(`challenge answered ${issued.status}: ${await issued.text()}`);
    const { challenge } = (await issued.json()) as { challenge: string };
    const body: RegistrationRequest = {
      address: identity.address,
      name: agent.name,
      url: 'https://agents.example/webhook',
      agent_type: 'uagent',
      readme: agent.readme,
      protocols: agent.protocols,
      challenge,
      challenge_response: identity.sign(challenge),
    };
    const registered = await fetch(`${base}/v2/agents`, { method: 'POST', headers, body: JSON.stringify(body) });
    if (registered.status >= 300) throw new Error(`registration answered ${registered.status}: ${await registered.text()}`);
    await registered.arrayBuffer();
  };
  const client = async () => {
    for (let next = agents.next(); !next.done; next = agents.next()) {
      const started = performance.now();
      try {
        await registerOne(next.value);
      } catch (error) {
        if (!socketClosed(error)) throw error;
        retries += 1;
        await registerOne(next.value);
      }
      latencies.push(performance.now() - started);
      index += 1;
      progress.tick(index);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, client));
  progress.finish();
  const seconds = (performance.now() - started) / 1000;
  return { count, seconds, perSecond: count / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), retries };
}
