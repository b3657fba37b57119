import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestStatusSchema, routerErrorSchema } from '../../schemas/router-api.ts';
import { readDevVars } from '../../scripts/stack/dev-vars.ts';
import { secretsFiles } from '../../scripts/stack/secrets.ts';
import { ROOT } from '../../scripts/stack/stack.ts';
import { launchBrowser } from './helpers/browser.ts';
import { registerCrowd, searchOrder, type Crowd } from './helpers/crowd.ts';
import { ask, sendRequest, waitForAnswer } from './helpers/router-client.ts';
import { startTempStack, type TempStack } from './helpers/temp-stack.ts';

const QUESTIONS = [
  { question: 'What was Apple’s total revenue in its latest annual report?', ticker: 'AAPL' },
  { question: 'What was Microsoft’s net income in its latest annual report?', ticker: 'MSFT' },
  { question: 'How much cash did Tesla hold at the end of its latest fiscal year?', ticker: 'TSLA' },
  { question: 'What were Amazon’s operating expenses in its latest annual report?', ticker: 'AMZN' },
];

describe('a crowded registry: lookalikes with dead webhooks and another tenant’s agent outrank the specialist', () => {
  let temp: TempStack;
  let crowd: Crowd;
  let browser: Browser;
  let operatorKey: string;

  beforeAll(async () => {
    temp = await startTempStack();
    crowd = await registerCrowd(temp);
    operatorKey = readDevVars(secretsFiles(ROOT, join(temp.dir, 'secrets')).router).REGISTRY_API_KEY!;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await crowd?.close();
    await temp?.dispose();
  });

  it('the lookalikes do outrank the specialist in search', async () => {
    const order = await searchOrder(temp.stack.urls.registry, operatorKey);
    const specialistAt = order.indexOf(temp.stack.specialistAddress);
    expect(specialistAt).toBeGreaterThan(-1);
    for (const address of [...crowd.decoys, crowd.lookalike]) {
      expect(order.indexOf(address), address).toBeGreaterThan(-1);
      expect(order.indexOf(address), address).toBeLessThan(specialistAt);
    }
  });

  it('20 users at once each get their own analysis; dead agents are passed over with a code; the tenant’s agent gets nothing', async () => {
    const router = temp.stack.urls.router;
    const users = Array.from({ length: 20 }, (_, index) => QUESTIONS[index % QUESTIONS.length]!);
    const answered = await Promise.all(
      users.map(async ({ question, ticker }) => {
        const requestId = await ask(router, question);
        const answer = await waitForAnswer(router, requestId, { intervalMs: 250 });
        return { ticker, requestId, text: JSON.stringify(answer) };
      }),
    );
    for (const user of answered) expect(user.text).toContain(`(${user.ticker})`);
    const statuses = await Promise.all(
      answered.map(async (user) => requestStatusSchema.parse(await (await fetch(`${router}/api/requests/${user.requestId}`)).json())),
    );
    for (const status of statuses) expect(status.specialist).toBe(temp.stack.specialistAddress);
    const passedOver = statuses.flatMap((status) => status.passed_over);
    expect(new Set(passedOver.map((entry) => entry.agent)).size).toBeGreaterThan(0);
    for (const entry of passedOver) {
      expect(crowd.decoys).toContain(entry.agent);
      expect(entry.reason).toBe('no_answer');
    }
    expect(JSON.stringify(statuses)).not.toContain('127.0.0.1');
    expect(crowd.lookalikeInbox).toEqual([]);
  });

  it('the browser client shows the analysis with the crowd present', async () => {
    const page = await browser.newPage();
    await page.goto(temp.stack.urls.client);
    await page.getByPlaceholder('Ask about a company').fill('What was Apple’s total revenue in its latest 10-K?');
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await page.locator('.analysis-item').first().waitFor({ timeout: 60_000 });
    await page.close();
  });

  it('with the specialist gone, only lookalikes: an error naming why, at once, in the client too', async () => {
    const removed = await fetch(`${temp.stack.urls.registry}/v2/agents/${temp.stack.specialistAddress}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${operatorKey}` },
    });
    expect(removed.status).toBe(200);
    // The router reuses one registry answer for DISCOVERY_CACHE_SECONDS (10).
    await sleep(11_000);
    const started = Date.now();
    const response = await sendRequest(temp.stack.urls.router, 'What was Apple’s revenue?');
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(response.status).toBe(502);
    const body = routerErrorSchema.parse(await response.json());
    expect(body.code).toBe('undeliverable');
    expect(body.error).toContain('no_answer');
    expect(body.error).not.toContain(crowd.lookalike);

    const page = await browser.newPage();
    await page.goto(temp.stack.urls.client);
    await page.getByPlaceholder('Ask about a company').fill('What was Apple’s revenue?');
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await page.getByText('could take the request').waitFor({ timeout: 15_000 });
    await page.close();
    expect(crowd.lookalikeInbox).toEqual([]);
  });
});
