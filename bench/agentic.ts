/**
 * llm1-agentic under load, on the Workers runtime (workerd through Miniflare, bench/e2e-workers-stack.ts, the
 * offline engine): 50 conversations at once, 3 turns each — a question, then two follow-ups that need the
 * earlier turns ("And in fiscal 2023?", "What about net income?"). Half of the conversations continue with
 * `x-session-id` and send only their new message; the other half resend the history (the OpenAI way) without
 * one. Every turn is streamed with a chat-only key. Prints per turn p50/p99 (request → [DONE]), the steps
 * streamed before the first content token, and the answers that state the right figure, checked against
 * data/edgar (bench/agentic-expected.ts).
 *
 *   npm run bench:agentic
 *   npm run bench:agentic -- --conversations 10
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createdKeySchema } from '../schemas/keys.ts';
import { featureAgent } from '../scripts/stack/feature-agent.ts';
import { expectedLine, type Figure } from './agentic-expected.ts';
import { reportHops } from './agentic-hops.ts';
import { type StreamedTurn, streamTurn } from './agentic-turn.ts';
import { startWorkersStack } from './e2e-workers-stack.ts';
import { percentile } from './e2e-stats.ts';
import { cpuSnapshot, cpuSpent, reportCpu } from './process-cpu.ts';
import { readSessionTimings } from './timing-log.ts';

const { values } = parseArgs({ options: { conversations: { type: 'string', default: '50' }, logs: { type: 'string' } } });
const CONVERSATIONS = Number(values.conversations);
const ROOT = resolve(import.meta.dirname, '..');

/** Companies of data/edgar, by the name a user would write, and the fiscal year asked first. */
const COMPANIES = [
  { name: 'NVIDIA', cik: 1045810, year: 2024 },
  { name: 'Apple', cik: 320193, year: 2023 },
  { name: 'Microsoft', cik: 789019, year: 2023 },
  { name: 'Amazon', cik: 1018724, year: 2023 },
  { name: 'Alphabet', cik: 1652044, year: 2023 },
];

interface Turn {
  question: string;
  expect: { figure: Figure; year: number };
}

function conversation(index: number): { company: (typeof COMPANIES)[number]; turns: Turn[]; withSession: boolean } {
  const company = COMPANIES[index % COMPANIES.length]!;
  const turns: Turn[] = [
    { question: `What was ${company.name}'s revenue in fiscal ${company.year}?`, expect: { figure: 'Revenue', year: company.year } },
    { question: `And in fiscal ${company.year - 1}?`, expect: { figure: 'Revenue', year: company.year - 1 } },
    { question: 'What about net income?', expect: { figure: 'Net income', year: company.year - 1 } },
  ];
  return { company, turns, withSession: index % 2 === 0 };
}

interface TurnResult {
  turn: number;
  ms: number;
  stepsBeforeContent: number;
  correct: boolean;
  content: string;
  /** The turn as streamed; null when the request failed. */
  streamed: StreamedTurn | null;
}

async function converse(chatUrl: string, key: string, index: number): Promise<TurnResult[]> {
  const { company, turns, withSession } = conversation(index);
  const session = withSession ? `bench-${index}-${crypto.randomUUID()}` : null;
  const history: { role: 'user' | 'assistant'; content: string }[] = [];
  const results: TurnResult[] = [];
  for (const [turn, { question, expect }] of turns.entries()) {
    history.push({ role: 'user', content: question });
    const messages = session ? [{ role: 'user', content: question }] : history;
    // A turn that failed (a reset connection, an error status) counts as answered wrongly, with what happened.
    const streamed = await streamTurn(chatUrl, key, messages, session).catch((error: unknown) => {
      const why = error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : String(error);
      history.push({ role: 'assistant', content: `request failed: ${why}` });
      return why;
    });
    if (typeof streamed === 'string') {
      results.push({
        turn: turn + 1,
        ms: NaN,
        stepsBeforeContent: 0,
        correct: false,
        content: `request failed: ${streamed}`,
        streamed: null,
      });
      continue;
    }
    history.push({ role: 'assistant', content: streamed.content });
    const line = expectedLine(ROOT, company.cik, expect.figure, expect.year);
    results.push({
      turn: turn + 1,
      ms: streamed.done - streamed.start,
      stepsBeforeContent: streamed.stepsBeforeContent,
      correct: streamed.content.includes(line),
      content: streamed.content,
      streamed,
    });
  }
  return results;
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'bench-agentic-'));
  const logDir = values.logs ?? join(work, 'logs');
  mkdirSync(logDir, { recursive: true });
  console.log(`bench:agentic: starting the Workers (registry+chat, specialist, router) in workerd through Miniflare…`);
  const stack = await startWorkersStack(ROOT, work, logDir);
  try {
    const created = await fetch(`${stack.urls.registry}/v1/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' },
      // A chat user's key: `chat` only; limits no bench reaches (the bench measures the Workers, not the meter).
      body: JSON.stringify({
        name: 'bench agentic',
        permissions: ['chat'],
        limits: { requests_per_minute: 1_000_000, tokens_per_minute: 1_000_000_000 },
      }),
    });
    const key = createdKeySchema.parse(await created.json()).key;
    await featureAgent(stack.urls.registry, stack.adminToken, stack.specialistAddress);
    // A warm-up conversation (cold isolates, first EDGAR reads), not counted.
    await converse(stack.urls.chat, key, 0);

    const load = loadavg()[0]!.toFixed(2);
    const started = performance.now();
    const snapshot = () => cpuSnapshot(new Map([['edgar', stack.edgarGroup]]), new Map(Object.entries(stack.runtimes)));
    const cpuBefore = snapshot();
    const clientCpuBefore = process.cpuUsage();
    const all = (await Promise.all(Array.from({ length: CONVERSATIONS }, (_, index) => converse(stack.urls.chat, key, index)))).flat();
    const clientCpu = process.cpuUsage(clientCpuBefore);
    const cpu = cpuSpent(cpuBefore, snapshot());
    cpu.set('bench clients', new Map([['node', (clientCpu.user + clientCpu.system) / 1000]]));
    const seconds = (performance.now() - started) / 1000;
    const loadAfter = loadavg()[0]!.toFixed(2);

    console.log(
      `\nruntime: workerd through Miniflare (bench/e2e-workers-stack.ts), offline engine; load average before the round ${load}, after it ${loadAfter}`,
    );
    console.log(
      `${CONVERSATIONS} conversations × 3 turns at once, a chat-only key, half with x-session-id, half with the history alone: ${seconds.toFixed(1)} s\n`,
    );
    console.log('| turn | p50 ms | p99 ms | steps before first content (min–max) | correct |');
    console.log('|---|---|---|---|---|');
    for (const turn of [1, 2, 3, 0]) {
      const rows = all.filter((result) => turn === 0 || result.turn === turn);
      const times = rows
        .map((row) => row.ms)
        .filter((ms) => !Number.isNaN(ms))
        .sort((a, b) => a - b);
      const steps = rows.map((row) => row.stepsBeforeContent);
      const correct = rows.filter((row) => row.correct).length;
      console.log(
        `| ${turn === 0 ? 'all' : turn} | ${percentile(times, 50).toFixed(0)} | ${percentile(times, 99).toFixed(0)} | ${Math.min(...steps)}–${Math.max(...steps)} | ${correct}/${rows.length} |`,
      );
    }
    // The Workers log their timing lines as each batch ends; give the last ones time to reach the log file.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const sessionTimings = readSessionTimings(stack.workerdLog);
    // A session's questions were asked one after the other, so its timing lines are in the order of its turns.
    const turnsOfSession = new Map<string, StreamedTurn[]>();
    for (const { streamed } of all)
      if (streamed?.session) turnsOfSession.set(streamed.session, [...(turnsOfSession.get(streamed.session) ?? []), streamed]);
    const timed = all.flatMap(({ streamed }) => {
      if (!streamed) return [];
      const turns = turnsOfSession.get(streamed.session ?? '') ?? [];
      const lines = streamed.session ? sessionTimings(streamed.session) : [];
      return [{ turn: streamed, specialist: lines[turns.indexOf(streamed)] ?? null }];
    });
    console.log(`\nwhere a turn's time goes (request → [DONE]), ${timed.length} turns:`);
    reportHops(timed);
    console.log('');
    reportCpu(Object.fromEntries([...cpu].map(([service, byName]) => [service, Object.fromEntries(byName)])), all.length, 'turn');
    const resent = all.reduce((sum, row) => sum + (row.streamed?.resent ?? 0), 0);
    console.log(`\nrequests sent again after the runtime closed their kept-alive connection (as the openai SDK does): ${resent}`);
    const failed = all.filter((row) => Number.isNaN(row.ms));
    if (failed.length) {
      const reasons = new Map<string, number>();
      for (const row of failed) reasons.set(row.content.slice(0, 160), (reasons.get(row.content.slice(0, 160)) ?? 0) + 1);
      console.log(`\n${failed.length} turn(s) failed as requests (not in the times above):`);
      for (const [reason, count] of reasons) console.log(`  ${count} × ${reason}`);
    }
    for (const turn of [1, 2, 3]) {
      const wrong = all.find((row) => row.turn === turn && !row.correct && !Number.isNaN(row.ms));
      if (wrong) console.log(`\nfirst wrong answer of turn ${turn}:\n${wrong.content.slice(0, 400)}`);
    }
  } finally {
    await stack.stop();
    if (!values.logs) rmSync(work, { recursive: true, force: true });
  }
}

await main();
