/**
 * The reference application under load: N users at once each ask one question through the real stack
 * (registry, chat, EDGAR data server, specialist, router), for N = 1, 20 and 100. Per level: answered and
 * failed (an answer that is not the asker's own counts as failed), p50/p99 of send → answer available at
 * the router, answers per second, and the share of each hop: from the router's request status timestamps
 * (same machine, same clock), the router's Server-Timing (registry search) and, when the bench started the
 * stack, the specialist's timing log lines (queue, team, chat, EDGAR, answer filing). Also the CPU time
 * per answer of each service, read from /proc over the round (up to the last user's answer; the status
 * lookups the hop shares need come after): the figure that does not depend on what else the machine runs.
 * A first, cold round (empty caches) is reported apart.
 *
 *   npm run bench:e2e                                  # starts the stack (no client) in a temp dir
 *   npm run bench:e2e -- --levels 1,20,100 --wait 0 --poll-ms 1000   # short polls, as clients before long polls
 *   npm run bench:e2e -- --router http://localhost:5001   # against a stack already running (npm start)
 *   npm run bench:e2e -- --logs /tmp/e2e-logs             # keep the stack's logs
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { analysisResultMessageSchema } from '../schemas/messages.ts';
import { requestSentSchema, requestStatusSchema } from '../schemas/router-api.ts';
import { createPoller, POLL_LIMITS, type Poll, type PollEnd } from '../pages/src/ask/poller.ts';
import type { ServiceName } from '../scripts/stack/ports.ts';
import { startStack } from '../scripts/stack/stack.ts';
import { startWorkersStack } from './e2e-workers-stack.ts';
import { HOPS, summarise, type Sample } from './e2e-stats.ts';
import { cpuSnapshot, cpuSpent, reportCpu } from './process-cpu.ts';
import { lineChartSvg, measuredUnder, writeChart } from './svg-chart.ts';
import { readTimings } from './timing-log.ts';

const { values } = parseArgs({
  options: {
    levels: { type: 'string', default: '1,20,100' },
    // As the browser client polls (its poller, pages/src/ask/poller.ts): polls are load the stack
    // carries beside the work. `--wait 0` polls without holding, once per `--poll-ms`, as clients before long polls did.
    'poll-ms': { type: 'string', default: String(POLL_LIMITS.intervalMs) },
    wait: { type: 'string', default: String(POLL_LIMITS.waitSeconds) },
    'timeout-ms': { type: 'string', default: '120000' },
    router: { type: 'string' },
    // Keep the stack's logs (each Worker's requests and timing lines) in this folder.
    logs: { type: 'string' },
  },
});
const RUNTIMES = {
  'wrangler-dev': 'the stack `npm start` runs: one `wrangler dev` per Worker (its proxy Worker, inspector and request logging around each)',
  miniflare:
    'the Workers alone, as the edge runs them: registry and chat in one workerd, specialist and router each in its own (Miniflare), each Worker on its own socket, built as `wrangler deploy` builds them',
};
const RUNTIME = (process.env.BENCH_E2E_RUNTIME ?? 'wrangler-dev') as keyof typeof RUNTIMES;
if (!(RUNTIME in RUNTIMES)) throw new Error(`BENCH_E2E_RUNTIME: one of ${Object.keys(RUNTIMES).join(', ')}`);
const levels = values.levels.split(',').map(Number);
const pollMs = Number(values['poll-ms']);
const waitSeconds = Number(values.wait);
const timeoutMs = Number(values['timeout-ms']);

/** Each question names one company; its analysis must name that company's ticker (the user's own answer). */
const QUESTIONS = [
  { question: 'What was Apple’s total revenue in its latest annual report?', ticker: 'AAPL' },
  { question: 'What was Microsoft’s net income in its latest annual report?', ticker: 'MSFT' },
  { question: 'How much cash did Tesla hold at the end of its latest fiscal year?', ticker: 'TSLA' },
  { question: 'What were Amazon’s operating expenses in its latest annual report?', ticker: 'AMZN' },
  { question: 'What are NVIDIA’s revenue and net margin over the last three fiscal years?', ticker: 'NVDA' },
];

/** A user's request as the router's status shows it; the Workers' own timings are added from their logs. */
type Timeline = Pick<Sample, 'start' | 'sent' | 'delivered' | 'filed' | 'seen' | 'discover'> & { requestId: string };

/** What a user saw: when it asked and when its own answer reached it (the router's timestamps are read after the round). */
type Asked = Pick<Timeline, 'requestId' | 'start' | 'seen' | 'discover'>;

/** A metric's duration (ms) in a Server-Timing header (`name;dur=12.3`), NaN when absent. */
function serverTiming(header: string | null, name: string): number {
  const metric = (header ?? '').split(',').find((entry) => entry.trim().split(';')[0] === name);
  const duration = metric && /;\s*dur=([\d.]+)/.exec(metric)?.[1];
  return duration ? Number(duration) : Number.NaN;
}
type Outcome = { ok: true; asked: Asked } | { ok: false; reason: string };

/** One user: asks (as its own client address), polls with the browser client's poller, checks the answer is its own. */
async function user(routerUrl: string, index: number): Promise<Outcome> {
  const { question, ticker } = QUESTIONS[index % QUESTIONS.length]!;
  const start = Date.now();
  const sent = await fetch(`${routerUrl}/api/send-request`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': `10.1.${index >> 8}.${index & 255}` },
    body: JSON.stringify({ input: question }),
  });
  if (sent.status !== 200) return { ok: false, reason: `send-request ${sent.status}: ${(await sent.text()).slice(0, 200)}` };
  const { request_id: requestId } = requestSentSchema.parse(await sent.json());
  const discover = serverTiming(sent.headers.get('server-timing'), 'registry-search');
  const wait = waitSeconds > 0 ? `&wait=${waitSeconds}` : '';
  const poll: Poll = async (signal) => {
    const response = await fetch(`${routerUrl}/api/get-response?request_id=${requestId}${wait}`, { signal });
    if (!response.ok) return { kind: 'error', message: `get-response ${response.status}: ${(await response.text()).slice(0, 200)}` };
    const answer = analysisResultMessageSchema.safeParse(await response.json());
    return answer.success ? { kind: 'answered', analysis: answer.data.analysis_result.analysis } : { kind: 'waiting' };
  };
  const limits = { ...POLL_LIMITS, intervalMs: pollMs, waitSeconds, timeoutMs };
  const end = await new Promise<PollEnd>((resolve) => createPoller(limits).start(poll, resolve));
  if (end.kind === 'timeout') return { ok: false, reason: `no answer within ${timeoutMs} ms` };
  if (end.kind === 'error') return { ok: false, reason: end.message };
  if (!JSON.stringify(end.analysis).includes(`(${ticker})`))
    return { ok: false, reason: `answer does not name ${ticker}: not the asker’s own` };
  return { ok: true, asked: { requestId, start, seen: Date.now(), discover } };
}

/** The router's timestamps of a request (GET /api/requests/{id}): read after the round, so not counted as its load. */
async function timeline(routerUrl: string, asked: Asked): Promise<Timeline> {
  const status = requestStatusSchema.parse(await (await fetch(`${routerUrl}/api/requests/${asked.requestId}`)).json());
  const at = (iso: string | null) => (iso === null ? Number.NaN : Date.parse(iso));
  return { ...asked, sent: at(status.sent_at), delivered: at(status.delivered_at), filed: at(status.answered_at) };
}

/**
 * What the bench started: where its logs are, and whose CPU time is read from /proc: each service's process
 * group (wrangler dev and its workerd, the EDGAR server), or the process of each Workers' runtime that
 * Miniflare started (children of the bench's own process, whose node is counted as the clients).
 */
interface Started {
  edgarLog: string;
  specialistLog: string;
  groups: Map<string, number>;
  processes: Map<string, number>;
  stop(): Promise<void>;
}
let started: Started | undefined;

/**
 * Requests the EDGAR data server logged within [from, to] (when the bench started the stack): what the
 * specialist's shared rate limiter (EDGAR_MAX_REQUESTS_PER_SECOND, 9) let through, and so the least time
 * cold data takes.
 */
function edgarRequests(from: number, to: number): number | null {
  if (!started || !existsSync(started.edgarLog)) return null;
  return readFileSync(started.edgarLog, 'utf8')
    .split('\n')
    .map((line) => Date.parse(line.split(' ')[0] ?? ''))
    .filter((at) => at >= from && at <= to).length;
}

const SERVICES: ServiceName[] = ['registry', 'chat', 'edgar', 'specialist', 'router'];

const snapshot = () => cpuSnapshot(started?.groups ?? new Map(), started?.processes);

/** `users` users at once; throughput = answers ÷ (first send → last answer filed). */
async function round(routerUrl: string, users: number, offset: number) {
  const cpuBefore = snapshot();
  const clientCpuBefore = process.cpuUsage();
  const roundStart = Date.now();
  const outcomes = await Promise.all(Array.from({ length: users }, (_, index) => user(routerUrl, offset + index)));
  const clientCpu = process.cpuUsage(clientCpuBefore);
  const cpu = cpuSpent(cpuBefore, snapshot());
  const timelines = await Promise.all(outcomes.flatMap((outcome) => (outcome.ok ? [timeline(routerUrl, outcome.asked)] : [])));
  // The Workers log their timing lines as each request ends; give the last ones time to reach the log files.
  await sleep(started ? 1000 : 0);
  const timings = started ? readTimings(started.specialistLog) : null;
  const samples: Sample[] = timelines.map(({ requestId, ...times }) => ({
    ...times,
    ...(timings?.(requestId) ?? { queued: NaN, team: NaN, chat: NaN, edgar: NaN, reply: NaN }),
  }));
  const failures = outcomes.flatMap((outcome) => (outcome.ok ? [] : [outcome.reason]));
  const summary = samples.length ? summarise(samples) : null;
  const span = samples.length ? Math.max(...samples.map((s) => s.filed)) - Math.min(...samples.map((s) => s.start)) : Number.NaN;
  const edgar = edgarRequests(roundStart, Date.now());
  cpu.set('bench clients', new Map([['node', (clientCpu.user + clientCpu.system) / 1000]]));
  return {
    users,
    answered: samples.length,
    failed: failures.length,
    failures: [...new Set(failures)].slice(0, 5),
    answersPerSecond: (samples.length / span) * 1000,
    edgar,
    /** CPU ms per service and process name over the round. */
    cpu: Object.fromEntries([...cpu].map(([service, byName]) => [service, Object.fromEntries(byName)])),
    summary,
  };
}

function report(label: string, result: Awaited<ReturnType<typeof round>>) {
  const ms = (value: number) => `${value.toFixed(0).padStart(6)} ms`;
  console.log(`\n${label}: ${result.answered} answered, ${result.failed} failed, ${result.answersPerSecond.toFixed(1)} answers/s`);
  for (const reason of result.failures) console.log(`  failure: ${reason}`);
  if (result.edgar !== null) {
    const least = result.edgar / 9;
    console.log(
      `  EDGAR: ${result.edgar} requests to the data server; at the SEC's pace (9/s configured, 10/s allowed) that alone takes ≥ ${least.toFixed(1)} s`,
    );
  }
  reportCpu(result.cpu, result.answered, 'answer');
  if (!result.summary) return;
  const { available, total, hops } = result.summary;
  console.log(`  send → answer at the router   p50 ${ms(available.p50)}   p99 ${ms(available.p99)}`);
  const polling = waitSeconds > 0 ? `long polls held up to ${waitSeconds} s` : `polls every ${pollMs} ms`;
  console.log(`  send → answer seen by client  p50 ${ms(total.p50)}   p99 ${ms(total.p99)}   (client ${polling})`);
  for (const hop of HOPS) {
    const figures = hops[hop.key];
    if (!figures) continue;
    console.log(
      `    ${hop.label.padEnd(46)} p50 ${ms(figures.p50)}  p99 ${ms(figures.p99)}  ${(figures.share * 100).toFixed(1).padStart(5)} % of mean`,
    );
  }
}

/** Starts the chosen runtime in `dir` (logs in `logDir`); the bench stops it at the end. */
async function start(dir: string, logDir: string): Promise<{ routerUrl: string; started: Started }> {
  if (RUNTIME === 'miniflare') {
    const workers = await startWorkersStack(resolve(import.meta.dirname, '..'), dir, logDir);
    return {
      routerUrl: workers.urls.router,
      started: {
        edgarLog: workers.edgarLog,
        specialistLog: workers.workerdLog,
        groups: new Map([['edgar', workers.edgarGroup]]),
        processes: new Map(Object.entries(workers.runtimes)),
        stop: workers.stop,
      },
    };
  }
  const stack = await startStack({ client: false, persistDir: join(dir, 'state'), secretsDir: join(dir, 'secrets'), logDir });
  const groups = new Map(SERVICES.flatMap((name) => (stack.processGroup(name) ? [[name, stack.processGroup(name)!] as const] : [])));
  return {
    routerUrl: stack.urls.router,
    started: {
      edgarLog: join(logDir, 'edgar.log'),
      specialistLog: join(logDir, 'specialist.log'),
      groups,
      processes: new Map(),
      stop: () => stack.stopAll(),
    },
  };
}

let dir: string | undefined;
try {
  let routerUrl = values.router;
  if (!routerUrl) {
    dir = mkdtempSync(join(tmpdir(), 'rendezvous-bench-'));
    console.log(`starting ${RUNTIMES[RUNTIME]} (with the EDGAR data server)…`);
    const runtime = await start(dir, values.logs ? resolve(values.logs) : join(dir, 'logs'));
    started = runtime.started;
    routerUrl = runtime.routerUrl;
  }
  const results: Awaited<ReturnType<typeof round>>[] = [];
  const cold = await round(routerUrl, QUESTIONS.length, 0);
  report(`cold caches, ${QUESTIONS.length} users at once (one per company)`, cold);
  let offset = QUESTIONS.length;
  for (const users of levels) {
    const result = await round(routerUrl, users, offset);
    offset += users;
    report(`warm caches, ${users} user${users > 1 ? 's' : ''} at once`, result);
    results.push(result);
  }
  const out = resolve(import.meta.dirname, 'results');
  mkdirSync(out, { recursive: true });
  const file = RUNTIME === 'miniflare' ? 'e2e-miniflare.json' : 'e2e.json';
  writeFileSync(
    join(out, file),
    JSON.stringify({ at: new Date().toISOString(), runtime: RUNTIME, pollMs, waitSeconds, cold, results }, null, 2),
  );
  console.log(`\n(figures also in bench/results/${file})`);
  const measured = levels.flatMap((users, index) => {
    const summary = results[index]?.summary;
    return summary ? [{ users, summary }] : [];
  });
  const line = (name: string, pick: (entry: (typeof measured)[number]) => number) => ({
    name,
    points: measured.map((entry) => [entry.users, pick(entry)] as const),
  });
  const chart = writeChart(
    resolve(import.meta.dirname, `charts/e2e-latency-${RUNTIME}.svg`),
    lineChartSvg({
      title: `Reference app: latency against concurrent users`,
      note: measuredUnder(
        RUNTIME === 'miniflare' ? 'the Workers in workerd via Miniflare' : 'the npm start stack (wrangler dev)',
        `${waitSeconds > 0 ? `long polls (wait=${waitSeconds} s)` : `short polls every ${pollMs} ms`}, one warm round per level`,
      ),
      xLabel: 'users asking at once (warm)',
      yLabel: 'ms, send → answer',
      logX: true,
      series: [
        line('at the router p50', (entry) => entry.summary.available.p50),
        line('at the router p99', (entry) => entry.summary.available.p99),
        line('client saw it, p50', (entry) => entry.summary.total.p50),
      ],
    }),
  );
  console.log(`chart: bench/charts/${chart.split('/').at(-1)}`);
} finally {
  await started?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}
