import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './helpers/browser.ts';
import { ask, sendRequest, waitForAnswer } from './helpers/router-client.ts';
import { createTempStack, type TempStack } from './helpers/temp-stack.ts';

describe('start order: router before the specialist', () => {
  let temp: TempStack;
  let browser: Browser;

  beforeAll(async () => {
    temp = await createTempStack();
    for (const name of ['registry', 'chat', 'edgar', 'router', 'client'] as const) await temp.stack.start(name);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await temp?.dispose();
  });

  it('answers 404 while no specialist is registered, and the client says so', async () => {
    const response = await sendRequest(temp.stack.urls.router, 'Apple revenue?');
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: expect.stringContaining('specialist'), code: 'no_specialist', param: null });

    const page = await browser.newPage();
    await page.goto(temp.stack.urls.client);
    await page.getByPlaceholder('Ask about a company').fill('Apple revenue?');
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await page.getByText('No specialist is registered yet').waitFor({ timeout: 15_000 });
    await page.close();
  });

  it('succeeds once the specialist has registered', async () => {
    await temp.stack.start('specialist');
    const requestId = await ask(temp.stack.urls.router, 'What was Microsoft’s revenue last year?');
    const answer = await waitForAnswer(temp.stack.urls.router, requestId);
    expect(answer.analysis_result.analysis.length).toBeGreaterThan(0);
  });
});
