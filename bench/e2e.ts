/**
 * End-to-end latency of the offline reference application: send → answer available, over N requests, and
 * the share of each hop, from the router's request status timestamps (same machine, same clock).
 *
 *   npm run bench:e2e                     # starts the stack (no client) in a temp dir, 100 requests
 *   npm run bench:e2e -- --requests 20 --concurrency 4 --poll-ms 100
 *   npm run bench:e2e -- --router http://localhost:5001   # against a stack already running (npm start)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { analysisResultMessageSchema } from '../schemas/messages.ts';
import { requestSentSchema, requestStatusSchema } from '../schemas/router-api.ts';
import { startStack, type Stack } from '../scripts/stack/stack.ts';
import { HOPS, summarise, type Sample } from './e2e-stats.ts';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '100' },
    concurrency: { type: 'string', default: '1' },
    'poll-ms': { type: 'string', default: '1000' },
    warmup: { type: 'string', default: '3' },
    router: { type: 'string' },
  },
});
const requests = Number(values.requests);
const concurrency = Number(values.concurrency);
const pollMs = Number(values['poll-ms']);

const QUESTIONS = [
  'What was Apple’s total revenue in its latest annual report?',
  'Summarise Microsoft’s most recent 10-K risk factors.',
  'How did Tesla’s net income change year over year?',
  'What is Amazon’s operating margin in the latest filing?',
];

async function measure(routerUrl: string, index: number): Promise<Sample> {
  const t0 = Date.now();
  const sent = await fetch(`${routerUrl}/api/send-request`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ input: QUESTIONS[index % QUESTIONS.length] }),
  });
  if (sent.status !== 200) throw new Error(`send-request answered ${sent.status}: ${await sent.text()}`);
  const { request_id: requestId } = requestSentSchema.parse(await sent.json());
  for (;;) {
    await sleep(pollMs);
    const response = await fetch(`${routerUrl}/api/get-response?request_id=${requestId}`);
    if (!response.ok) throw new Error(`get-response answered ${response.status}: ${await response.text()}`);
    if (analysisResultMessageSchema.safeParse(await response.json()).success) break;
  }
  const seen = Date.now();
  const status = requestStatusSchema.parse(await (await fetch(`${routerUrl}/api/requests/${requestId}`)).json());
  const at = (iso: string | null) => (iso === null ? NaN : Date.parse(iso));
  return { start: t0, sent: at(status.sent_at), delivered: at(status.delivered_at), filed: at(status.answered_at), seen };
}

async function run(routerUrl: string, count: number): Promise<Sample[]> {
  const samples: Sample[] = [];
  let next = 0;
  const lane = async () => {
    while (next < count) samples.push(await measure(routerUrl, next++));
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
  return samples;
}

let stack: Stack | undefined;
let dir: string | undefined;
try {
  let routerUrl = values.router;
  if (!routerUrl) {
    dir = mkdtempSync(join(tmpdir(), 'rendezvous-bench-'));
    console.log('starting the stack (registry, chat, EDGAR data, specialist, router)…');
    stack = await startStack({ client: false, persistDir: join(dir, 'state'), secretsDir: join(dir, 'secrets'), logDir: join(dir, 'logs') });
    routerUrl = stack.urls.router;
  }
  await run(routerUrl, Number(values.warmup));
  console.log(`measuring ${requests} requests, concurrency ${concurrency}, client poll every ${pollMs} ms…`);
  const summary = summarise(await run(routerUrl, requests));

  const ms = (value: number) => `${value.toFixed(0).padStart(7)} ms`;
  console.log(`\nEnd-to-end latency, send → answer seen by the client (${summary.count} requests)`);
  console.log(`  p50 ${ms(summary.total.p50)}   p99 ${ms(summary.total.p99)}   mean ${ms(summary.total.mean)}`);
  console.log(`Send → answer available at the router (no polling delay)`);
  console.log(`  p50 ${ms(summary.available.p50)}   p99 ${ms(summary.available.p99)}`);
  console.log('\nHop                                              p50         p99   share of mean');
  for (const hop of HOPS) {
    const figures = summary.hops[hop.key];
    console.log(`  ${hop.label.padEnd(44)} ${ms(figures.p50)} ${ms(figures.p99)}   ${(figures.share * 100).toFixed(1).padStart(5)} %`);
  }
  const out = resolve(import.meta.dirname, 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'e2e.json'), JSON.stringify({ requests, concurrency, pollMs, at: new Date().toISOString(), ...summary }, null, 2));
  console.log(`\n(figures also in bench/results/e2e.json)`);
} finally {
  await stack?.stopAll();
  if (dir) rmSync(dir, { recursive: true, force: true });
}
