import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatCompletionChunk, IntermediateStep, type StepAgent } from '../../schemas/chat.ts';
import { agentDetailSchema } from '../../schemas/registry.ts';
import { launchBrowser } from './helpers/browser.ts';

/**
 * The playground's Agents mode in Chromium, against the client's production build. The chat and registry APIs
 * are a stub on a port of its own that streams canned `llm1-agentic` steps (the step schema of schemas/chat.ts)
 * and holds the stream open after the message is sent, so the test sees the steps appear before the answer.
 * No stack runs: the agentic chat Worker itself is tested in workerd (test/chat).
 */

const AGENT: StepAgent = {
  address: 'agent1qfinancialanalyst0000000000000000000000000000000000000000',
  name: 'Financial Analyst',
  handle: 'financial-analyst',
};
const ANSWER = 'NVIDIA reported revenue of $60.9 billion for fiscal 2024, up 126% from a year ago.';
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Allow-Headers': 'authorization, content-type, accept, x-session-id',
};

const at = '2026-11-23T12:00:00.000Z';
const steps = (question: string): IntermediateStep[] =>
  [
    {
      step: 'search',
      text: 'Searched the registry: 2 agents fit',
      at,
      query: question,
      candidates: [{ address: AGENT.address, name: AGENT.name, status: 'active' }],
      total: 2,
      error: null,
    },
    { step: 'choose', text: `Chose ${AGENT.name}`, at, choice: [AGENT.address], reason: 'it analyses SEC filings', agent: AGENT },
    { step: 'sent', text: question, at, agent: AGENT, session: 'b3c1f4de-0000-4000-8000-000000000001', msg_id: 'm-1' },
    { step: 'acknowledged', text: `${AGENT.name} acknowledged`, at, agent: AGENT, msg_id: 'm-1' },
    { step: 'answered', text: ANSWER, at, agent: AGENT, msg_id: 'm-1', late: false },
  ].map((step) => IntermediateStep.parse(step));

const AGENT_DETAIL = agentDetailSchema.parse({
  address: AGENT.address,
  name: AGENT.name,
  readme: '# Financial Analyst\nAnswers questions about public companies from their SEC filings.',
  status: 'active',
  total_interactions: 12,
  recent_interactions: 3,
  cross_account_interactions: 3,
  agent_rank: 0.4,
  rating: null,
  type: 'hosted',
  category: 'finance',
  featured: false,
  geo_location: null,
  last_updated: at,
  created_at: at,
  handle: AGENT.handle,
  description: 'Answers questions about public companies from their SEC filings.',
  tags: ['finance'],
  protocols: [],
  use_cases: [],
  functions: [],
  url: null,
  endpoints: [],
  domain_tags: [],
  profile: { description: '', avatar_url: null, banner_url: null, starter_prompts: [] },
  metadata: null,
  is_active: true,
  public: true,
  last_status_update: null,
  last_probe_at: null,
  last_probe_ok: null,
});

describe('the playground’s Agents mode', () => {
  let outDir: string;
  let site: Server;
  let api: Server;
  let siteUrl: string;
  let browser: Browser;
  /** What the page sent to POST /v1/chat/completions. */
  const completions: { body: { model: string; messages: { content: string }[] }; session: string | undefined }[] = [];
  /** Lets the held stream go on to the acknowledgement and the answer. */
  let release: () => void = () => {};

  const frame = (chunk: Partial<ChatCompletionChunk>) =>
    `data: ${JSON.stringify(
      ChatCompletionChunk.parse({
        id: 'chatcmpl-agents',
        object: 'chat.completion.chunk',
        created: 1_795_000_000,
        model: 'llm1-agentic',
        system_fingerprint: 'fp_agentic',
        service_tier: 'default',
        choices: [{ index: 0, delta: {}, finish_reason: null, logprobs: null }],
        ...chunk,
      }),
    )}\n\n`;

  async function streamAgentic(request: IncomingMessage, response: ServerResponse) {
    let text = '';
    for await (const piece of request) text += piece;
    const body = JSON.parse(text) as (typeof completions)[number]['body'];
    completions.push({ body, session: request.headers['x-session-id'] as string | undefined });
    const question = body.messages.at(-1)!.content;
    const [search, choose, sent, acknowledged, answered] = steps(question);
    // Held from before `sent` goes out, so a test that sees `sent` and calls release() always frees this stream.
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    response.writeHead(200, { ...CORS, 'Content-Type': 'text/event-stream' });
    response.write(frame({ choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null, logprobs: null }] }));
    for (const step of [search!, choose!, sent!]) {
      response.write(frame({ intermediate_steps: [step] }));
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    await held;
    response.write(frame({ intermediate_steps: [acknowledged!] }));
    response.write(frame({ intermediate_steps: [answered!] }));
    for (const word of ANSWER.split(/(?<= )/)) {
      response.write(frame({ choices: [{ index: 0, delta: { content: word }, finish_reason: null, logprobs: null }] }));
    }
    response.write(frame({ choices: [{ index: 0, delta: {}, finish_reason: 'stop', logprobs: null }] }));
    response.end('data: [DONE]\n\n');
  }

  function serveApi(request: IncomingMessage, response: ServerResponse) {
    const path = new URL(request.url!, 'http://api').pathname;
    if (request.method === 'OPTIONS') return void response.writeHead(204, CORS).end();
    if (path === '/v1/models') {
      const model = (id: string) => ({
        id,
        object: 'model',
        created: 0,
        owned_by: 'rendezvous',
        provider: 'offline',
        context_window: 8192,
        available: true,
      });
      return void response
        .writeHead(200, { ...CORS, 'Content-Type': 'application/json' })
        .end(JSON.stringify({ object: 'list', data: [model('llm1'), model('llm1-agentic')] }));
    }
    if (path === '/v1/chat/completions') return void streamAgentic(request, response);
    if (path === `/v2/agents/${AGENT.address}`) {
      return void response.writeHead(200, { ...CORS, 'Content-Type': 'application/json' }).end(JSON.stringify(AGENT_DETAIL));
    }
    response.writeHead(404, CORS).end();
  }

  async function listen(server: Server): Promise<string> {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  beforeAll(async () => {
    api = createServer(serveApi);
    const apiUrl = await listen(api);
    outDir = mkdtempSync(join(tmpdir(), 'rendezvous-playground-agents-'));
    const urls = { VITE_ROUTER_URL: apiUrl, VITE_REGISTRY_URL: apiUrl, VITE_CHAT_URL: apiUrl };
    const saved = { ...process.env };
    Object.assign(process.env, urls);
    try {
      await build({ configFile: 'pages/vite.config.ts', logLevel: 'error', build: { outDir, emptyOutDir: true } });
    } finally {
      for (const name of Object.keys(urls)) if (saved[name] === undefined) delete process.env[name];
      Object.assign(process.env, saved);
    }
    site = createServer((request, response) => {
      const path = normalize(new URL(request.url!, 'http://site').pathname).replace(/^(\.\.[/\\])+/, '');
      const file = path === '/' ? '/index.html' : path;
      readFile(join(outDir, file)).then(
        (body) => response.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body),
        () => response.writeHead(404).end(),
      );
    });
    siteUrl = await listen(site);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    release();
    await browser?.close();
    for (const server of [site, api]) await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    if (outDir) rmSync(outDir, { recursive: true, force: true });
  });

  async function ask(page: Page, question: string) {
    await page.getByLabel('Message').fill(question);
    await page.getByRole('button', { name: 'Send' }).click();
  }

  it('shows the steps live, then the answer; follow-ups keep the session; the agent links to its explorer page', async () => {
    const page = await browser.newPage();
    await page.goto(`${siteUrl}/#playground`);
    await page.getByLabel('API key (chat permission)').fill('rdv_test_key');
    await page.getByLabel('API key (chat permission)').press('Tab');
    await page.getByRole('radio', { name: 'Agents' }).check();
    await page.getByText('llm1-agentic finds the agent for your question').waitFor();

    const question = "What was NVIDIA's revenue in fiscal 2024?";
    await ask(page, question);
    const reply = page.locator('.playground-reply').last();
    // The stream is held after `sent`: the steps so far show, the answer does not yet.
    await reply.locator('li[data-step="sent"]').waitFor({ timeout: 15_000 });
    expect(await reply.locator('li[data-step]').evaluateAll((items) => items.map((item) => item.getAttribute('data-step')))).toEqual([
      'search',
      'choose',
      'sent',
      'working',
    ]);
    expect(await reply.locator('li[data-step="choose"]').innerText()).toContain('because it analyses SEC filings');
    expect(await reply.locator('.playground-content').innerText()).toBe('');
    expect(await reply.locator('li[data-step="answered"]').count()).toBe(0);

    release();
    await reply.locator('.playground-content', { hasText: '$60.9 billion' }).waitFor({ timeout: 15_000 });
    await page.locator('.playground-reply[data-streaming="false"]').waitFor();
    expect(await reply.locator('li[data-step]').evaluateAll((items) => items.map((item) => item.getAttribute('data-step')))).toEqual([
      'search',
      'choose',
      'sent',
      'acknowledged',
      'answered',
    ]);
    expect(await reply.locator('.playground-content').innerText()).toBe(ANSWER);
    expect(completions[0]!.body.model).toBe('llm1-agentic');
    expect(completions[0]!.session).toMatch(/^[0-9a-f-]{36}$/);

    await ask(page, 'And in fiscal 2023?');
    await page.locator('.playground-reply').nth(1).locator('li[data-step="sent"]').waitFor({ timeout: 15_000 });
    release();
    await page.locator('.playground-reply').nth(1).locator('.playground-content', { hasText: '$60.9 billion' }).waitFor();
    expect(completions[1]!.session).toBe(completions[0]!.session);
    expect(completions[1]!.body.messages.map((m) => m.content)).toEqual([question, ANSWER, 'And in fiscal 2023?']);

    const link = reply.locator('li[data-step="choose"] a', { hasText: AGENT.name });
    expect(await link.getAttribute('href')).toBe(`#explorer/${AGENT.address}`);
    await link.click();
    await page.locator('.agent-view h2', { hasText: AGENT.name }).waitFor({ timeout: 15_000 });
    expect(await page.locator('.agent-view-address').innerText()).toContain(AGENT.address);
    await page.close();
  });
});
