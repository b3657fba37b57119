import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './helpers/browser.ts';
import { registerCrowd, type Crowd } from './helpers/crowd.ts';
import { screenshotPath } from './helpers/screenshots.ts';
import { getFromService, startTempStack, type TempStack } from './helpers/temp-stack.ts';
import { POLL_LIMITS } from '../../pages/src/ask/poller.ts';

describe('the reference application, end to end', () => {
  let temp: TempStack;
  let browser: Browser;
  let crowd: Crowd;
  const progress: string[] = [];

  // A registry as a new user meets it: lookalikes with dead webhooks, and another tenant's, rank above the specialist.
  beforeAll(async () => {
    temp = await startTempStack({ onProgress: (line) => progress.push(line) });
    crowd = await registerCrowd(temp);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await crowd?.close();
    await temp?.dispose();
  });

  it('starts registry, chat, the data server, specialist, router, the hosting vault, hosting and client in the spec’s order, each answering', async () => {
    const started = progress.filter((line) => line.startsWith('starting ')).map((line) => line.split(' ')[1]);
    expect(started).toEqual(['registry', 'chat', 'edgar', 'specialist', 'router', 'vault', 'hosting', 'client']);
    for (const name of ['registry', 'chat', 'specialist', 'router', 'vault', 'hosting'] as const) {
      expect((await getFromService(temp, name, '/health')).status, name).toBe(200);
    }
    expect((await getFromService(temp, 'client', '/')).status).toBe(200);
  });

  it('a user asks a question in the browser and sees the analysis; polling then stops', async () => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 1500 } });
    const polls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/get-response')) polls.push(request.url());
    });
    await page.goto(temp.stack.urls.client);
    await page.getByPlaceholder('Ask about a company').fill('What was Apple’s total revenue in its latest 10-K?');
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await page.getByText('Waiting for the specialist').waitFor({ timeout: 15_000 });

    const items = page.locator('.analysis-item');
    await items.first().waitFor({ timeout: 120_000 });
    expect(await items.count()).toBeGreaterThan(0);
    const labels = await page.locator('.analysis-label').allTextContents();
    expect(labels.every((label) => label.trim().length > 0)).toBe(true);
    expect((await page.locator('.analysis .markdown').first().innerText()).trim().length).toBeGreaterThan(0);
    expect(polls.length).toBeGreaterThan(0);
    expect(new Set(polls.map((url) => new URL(url).searchParams.get('request_id'))).size).toBe(1);
    // Long polls: the router holds each until the answer is filed.
    expect(polls.every((url) => new URL(url).searchParams.get('wait') === String(POLL_LIMITS.waitSeconds))).toBe(true);

    await page.screenshot({ path: screenshotPath('reference-app.png') });

    const pollsAtAnswer = polls.length;
    await page.waitForTimeout(2500);
    expect(polls.length).toBe(pollsAtAnswer);
    await page.close();
  });
});
