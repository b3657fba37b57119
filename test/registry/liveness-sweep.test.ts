import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  env,
  getQueueResult,
  waitOnExecutionContext,
} from 'cloudflare:test';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import worker from '../../workers/registry/src/index.ts';
import { PROBES_PER_MESSAGE, PROBES_PER_RUN, type ProbeMessage } from '../../workers/registry/src/liveness/sweep.ts';
import { migrate } from './helpers.ts';

/**
 * The liveness sweep at 100,000 agents on a fake clock: one cron run every 5 minutes, each queued share
 * delivered to the queue handler. 90,000 agents belong to one owner, 10,000 to 100 others.
 */
const AGENTS = 100_000;
const BIG_OWNER_AGENTS = 90_000;
const SMALL_OWNERS = 100;
const CRON_MINUTES = 5;
/** Per Worker invocation: the free plan's subrequest limit (the paid plan's is 1,000). */
const SUBREQUEST_LIMIT = 50;
const START = Date.parse('2026-11-25T00:00:00.000Z');

interface Counts {
  d1: number;
  queueSends: number;
  fetches: number;
}

const INNER = Symbol('inner');
type Wrapped = D1PreparedStatement & { [INNER]: D1PreparedStatement };

/** env with a D1 that counts its calls and a queue that records what is sent (delivered by the test itself). */
function countingEnv(counts: Counts, sent: ProbeMessage[]): RegistryEnv {
  const wrap = (statement: D1PreparedStatement): Wrapped => {
    const counted =
      <K extends 'run' | 'all' | 'first' | 'raw'>(method: K) =>
      (...args: unknown[]) => {
        counts.d1 += 1;
        return (statement[method] as (...a: unknown[]) => unknown)(...args);
      };
    return {
      [INNER]: statement,
      bind: (...values: unknown[]) => wrap(statement.bind(...values)),
      run: counted('run'),
      all: counted('all'),
      first: counted('first'),
      raw: counted('raw'),
    } as unknown as Wrapped;
  };
  const db = {
    prepare: (sql: string) => wrap(env.DB.prepare(sql)),
    batch: (statements: Wrapped[]) => {
      counts.d1 += 1;
      return env.DB.batch(statements.map((statement) => statement[INNER]));
    },
  } as unknown as D1Database;
  const queue = {
    async send(body: ProbeMessage) {
      counts.queueSends += 1;
      sent.push(body);
    },
    async sendBatch(messages: { body: ProbeMessage }[]) {
      counts.queueSends += 1;
      sent.push(...messages.map((message) => message.body));
    },
  } as unknown as Queue;
  return { ...env, DB: db, LIVENESS_QUEUE: queue };
}

const fresh = (): Counts => ({ d1: 0, queueSends: 0, fetches: 0 });
const subrequests = (counts: Counts) => counts.d1 + counts.queueSends + counts.fetches;

let fetchCounts: Counts;
/** Per cron run: its own counts, each queue invocation's, and the addresses it queued (its inline share aside). */
const runs: { cron: Counts; consumers: Counts[]; claimed: string[] }[] = [];

/** One cron run at `at`, then every message it queued delivered to the queue handler, one invocation each. */
async function cronRun(at: number) {
  vi.setSystemTime(at);
  const sent: ProbeMessage[] = [];
  const cron = fresh();
  fetchCounts = cron;
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: at, cron: '*/5 * * * *' }), countingEnv(cron, sent), ctx);
  await waitOnExecutionContext(ctx);
  const consumers: Counts[] = [];
  for (const [i, body] of sent.entries()) {
    const counts = fresh();
    fetchCounts = counts;
    const queueCtx = createExecutionContext();
    const batch = createMessageBatch<ProbeMessage>('rendezvous-liveness', [
      { id: `m${at}-${i}`, timestamp: new Date(at), body, attempts: 1 },
    ]);
    await worker.queue(batch, countingEnv(counts, []));
    const result = await getQueueResult(batch, queueCtx);
    expect(result.explicitAcks).toEqual([`m${at}-${i}`]);
    consumers.push(counts);
  }
  runs.push({ cron, consumers, claimed: sent.flatMap((message) => message.addresses) });
}

const probedCount = async (where: string) =>
  (await env.DB.prepare(`SELECT count(*) AS n FROM agents WHERE last_probe_at IS NOT NULL AND ${where}`).first<{ n: number }>())!.n;

beforeAll(async () => {
  await migrate();
  const created = new Date(START - 86_400_000).toISOString();
  await env.DB.prepare(
    `INSERT INTO accounts (id, name, created_at)
     WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${SMALL_OWNERS}) SELECT 'owner-' || i, 'owner-' || i, ?1 FROM n`,
  )
    .bind(created)
    .run();
  // Addresses are random, as real ones are: the big owner's agents are spread through the probe order.
  await env.DB.prepare(
    `INSERT INTO agents (address, account_id, name, url, status, created_at, last_updated)
     WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${AGENTS - 1})
     SELECT 'agent1q' || lower(hex(randomblob(29))), CASE WHEN i < ${BIG_OWNER_AGENTS} THEN 'owner-0' ELSE 'owner-' || (1 + i % ${SMALL_OWNERS}) END,
       'Sweep agent ' || i, 'https://sweep-' || i || '.example.com/webhook', 'active', ?1, ?1 FROM n`,
  )
    .bind(created)
    .run();
  vi.useFakeTimers({ toFake: ['Date'] });
  // The mocked webhooks answer at once; each probe's 3 s timeout timer would outlive it, and 100,000 probes in
  // one test isolate would exceed workerd's 10,000 active timers (each real invocation has its own few dozen).
  vi.spyOn(AbortSignal, 'timeout').mockImplementation(() => new AbortController().signal);
  vi.spyOn(globalThis, 'fetch').mockImplementation(async () => {
    fetchCounts.fetches += 1;
    return new Response(null, { status: 204 });
  });
}, 120_000);

afterAll(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('liveness sweep through the queue, 100,000 agents, fake clock', () => {
  it('covers every agent within its period, each invocation within its subrequest limit', async () => {
    const period = Math.ceil(AGENTS / PROBES_PER_RUN);
    for (let run = 0; run < period; run++) await cronRun(START + run * CRON_MINUTES * 60_000);

    expect(await probedCount('1')).toBe(AGENTS);
    for (const { cron, consumers } of runs) {
      expect(subrequests(cron)).toBeLessThanOrEqual(SUBREQUEST_LIMIT);
      expect(cron.fetches).toBeLessThanOrEqual(PROBES_PER_MESSAGE);
      for (const consumer of consumers) {
        expect(consumer.fetches).toBeLessThanOrEqual(PROBES_PER_MESSAGE);
        expect(consumer.d1).toBeLessThanOrEqual(2);
        expect(subrequests(consumer)).toBeLessThanOrEqual(SUBREQUEST_LIMIT);
      }
    }
    // Each agent probed once in the period: the probes of all runs add up to the registry, no more.
    expect(runs.reduce((sum, run) => sum + run.cron.fetches + run.consumers.reduce((s, c) => s + c.fetches, 0), 0)).toBe(AGENTS);
    const claims = await env.DB.prepare('SELECT count(*) AS n FROM liveness_claims').first<{ n: number }>();
    expect(claims?.n).toBe(0);
  }, 600_000);

  it('gave the 100 small owners a fair share of the first run, not their 10 % of the registry', async () => {
    const first = new Set(runs[0]!.claimed);
    const { results } = await env.DB.prepare("SELECT address, account_id FROM agents WHERE account_id != 'owner-0'").all<{
      address: string;
      account_id: string;
    }>();
    const smallInFirst = results.filter((row) => first.has(row.address));
    expect(new Set(smallInFirst.map((row) => row.account_id)).size).toBe(SMALL_OWNERS);
    // The queued part of the first run (its inline share aside): small owners hold 10 % of the agents.
    expect(smallInFirst.length / first.size).toBeGreaterThan(0.3);
  });

  it('probes the stalest agents first', { timeout: 120_000 }, async () => {
    const { results: stale } = await env.DB.prepare("SELECT address FROM agents WHERE account_id = 'owner-7' LIMIT 30").all<{
      address: string;
    }>();
    const addresses = stale.map((row) => row.address);
    await env.DB.prepare(
      `UPDATE agents SET last_probe_at = '2000-01-01T00:00:00.000Z' WHERE address IN (${addresses.map(() => '?').join(', ')})`,
    )
      .bind(...addresses)
      .run();
    const at = START + runs.length * CRON_MINUTES * 60_000;
    await cronRun(at);
    const { results } = await env.DB.prepare(`SELECT last_probe_at FROM agents WHERE address IN (${addresses.map(() => '?').join(', ')})`)
      .bind(...addresses)
      .all<{ last_probe_at: string }>();
    expect(results.map((row) => row.last_probe_at)).toEqual(addresses.map(() => new Date(at).toISOString()));
  });
});
