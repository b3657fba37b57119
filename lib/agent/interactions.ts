import { interactionResponseSchema } from '../../schemas/registry.ts';
import { createAttestation } from '../registry-client/index.ts';
import type { BoundAgent } from './bound.ts';

/**
 * Per isolate: pairs (registry, source, target) the registry said it counts no more today (its daily cap
 * per pair, DAILY_INTERACTIONS_PER_PAIR), with the end of that UTC day. Reporting them again costs a
 * signature here, its verification and D1 writes at the registry, and counts nothing.
 */
const uncountedUntil = new Map<string, number>();
const UNCOUNTED_MAX_ENTRIES = 10_000;

/** Per isolate: the last report of each pair still under way; the next one of the pair waits for it. */
const lastReport = new Map<string, Promise<void>>();

/** A report the registry does not answer in time is given up: the pair's next report waits for it. */
const REPORT_TIMEOUT_MS = 10_000;

const endOfUtcDay = (now: number) => {
  const day = new Date(now);
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() + 1);
};

/**
 * Reports a delivered message to the registry as uagents-core does (`record_agent_interaction`): the
 * sender's signed attestation in `Authorization: Agent attr:…`. Best effort: a failure is logged. Once the
 * registry answers that it did not count one, the pair is not reported again until the UTC day ends. The
 * reports of one pair go one at a time, each after the last one's answer, so a burst of messages costs the
 * registry its daily cap and one report more, not one signature check and D1 write per message.
 */
export async function reportInteraction<Env>(agent: BoundAgent<Env>, target: string, session: string): Promise<void> {
  if (agent.settings.reportInteractions === false) return;
  const pair = `${agent.settings.registryUrl} ${agent.identity.address} ${target}`;
  // postReport never rejects (best effort), so the chain never breaks.
  const mine = (lastReport.get(pair) ?? Promise.resolve()).then(() => reportUnlessUncounted(agent, target, session, pair));
  lastReport.set(pair, mine);
  try {
    await mine;
  } finally {
    if (lastReport.get(pair) === mine) lastReport.delete(pair);
  }
}

async function reportUnlessUncounted<Env>(agent: BoundAgent<Env>, target: string, session: string, pair: string): Promise<void> {
  const until = uncountedUntil.get(pair);
  if (until !== undefined && until > Date.now()) return;
  uncountedUntil.delete(pair);
  await postReport(agent, target, session, pair);
}

async function postReport<Env>(agent: BoundAgent<Env>, target: string, session: string, pair: string): Promise<void> {
  const url = `${agent.settings.registryUrl.replace(/\/+$/, '')}/v2/agents/interactions`;
  try {
    const response = await agent.fetch(url, {
      method: 'POST',
      headers: { authorization: `Agent ${createAttestation(agent.identity)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ target, session_id: session, source: agent.identity.address }),
      signal: AbortSignal.timeout(REPORT_TIMEOUT_MS),
    });
    if (!response.ok) {
      console.warn(
        `agent ${agent.definition.name}: interaction report answered ${response.status}: ${(await response.text()).slice(0, 200)}`,
      );
      return;
    }
    const answer = interactionResponseSchema.safeParse(await response.json().catch(() => null));
    if (answer.success && !answer.data.counted) {
      if (uncountedUntil.size >= UNCOUNTED_MAX_ENTRIES) uncountedUntil.clear();
      uncountedUntil.set(pair, endOfUtcDay(Date.now()));
    }
  } catch (error) {
    console.warn(`agent ${agent.definition.name}: interaction report failed: ${(error as Error).message}`);
  }
}
