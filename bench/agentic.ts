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
import { type ChatCompletionChunk, ChatCompletionChunk as chunkSchema } from '../schemas/chat.ts';
import { createdKeySchema } from '../schemas/keys.ts';
import { featureAgent } from '../scripts/stack/feature-agent.ts';
import { expectedLine, type Figure } from './agentic-expected.ts';
import { startWorkersStack } from './e2e-workers-stack.ts';
import { percentile } from './e2e-stats.ts';

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
}

/** One streamed completion: its time to [DONE], the steps before the first content token, the content. */
async function streamTurn(chatUrl: string, key: string, messages: unknown[], session: string | null) {
  const started = performance.now();
  const response = await fetch(`${chatUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(session ? { 'x-session-id': session } : {}) },
    body: JSON.stringify({ model: 'llm1-agentic', stream: true, messages }),
  });
  if (!response.ok) throw new Error(`chat answered ${response.status}: ${await response.text()}`);
  const text = await response.text();
  const ms = performance.now() - started;
  let steps = 0;
  let stepsBeforeContent = -1;
  let content = '';
  for (const block of text.split('\n\n')) {
    if (!block.startsWith('data: ') || block === 'data: [DONE]') continue;
    const chunk: ChatCompletionChunk = chunkSchema.parse(JSON.parse(block.slice('data: '.length)));
    steps += chunk.intermediate_steps?.length ?? 0;
    const delta = chunk.choices[0]?.delta.content ?? '';
    if (delta && stepsBeforeContent < 0) stepsBeforeContent = steps;
    content += delta;
  }
  return { ms, stepsBeforeContent: Math.max(0, stepsBeforeContent), content };
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
    const { ms, stepsBeforeContent, content } = await streamTurn(chatUrl, key, messages, session).catch((error: unknown) => ({
      ms: NaN,
      stepsBeforeContent: 0,
      content: `request failed: ${error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : String(error)}`,
    }));
    history.push({ role: 'assistant', content });
    const line = expectedLine(ROOT, company.cik, expect.figure, expect.year);
    results.push({ turn: turn + 1, ms, stepsBeforeContent, correct: content.includes(line), content });
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
    const all = (await Promise.all(Array.from({ length: CONVERSATIONS }, (_, index) => converse(stack.urls.chat, key, index)))).flat();
    const seconds = (performance.now() - started) / 1000;

    console.log(
      `\nruntime: workerd through Miniflare (bench/e2e-workers-stack.ts), offline engine; load average before the round: ${load}`,
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
