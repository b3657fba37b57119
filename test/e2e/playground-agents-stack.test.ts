import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevKey } from '../../scripts/dev/bootstrap-key.ts';
import { readDevVars } from '../../scripts/stack/dev-vars.ts';
import { secretsFiles } from '../../scripts/stack/secrets.ts';
import { ROOT } from '../../scripts/stack/stack.ts';
import { launchBrowser } from './helpers/browser.ts';
import { startTempStack, type TempStack } from './helpers/temp-stack.ts';

/** NVIDIA's fiscal 2024 revenue in the local EDGAR data: $60,922 million, however the answer writes it. */
const NVIDIA_FY2024_REVENUE = /60[.,]9/;

/**
 * The playground's Agents mode on the running stack (registry, chat Worker with its agent, the specialist, the
 * client): the browser asks `llm1-agentic`, sees every step of the conversation with the specialist, gets its
 * figure, and follows the agent's name to its explorer page.
 */
describe('the playground’s Agents mode through the running stack', () => {
  let temp: TempStack;
  let browser: Browser;
  let key: string;

  beforeAll(async () => {
    temp = await startTempStack();
    const adminToken = readDevVars(secretsFiles(ROOT, `${temp.dir}/secrets`).registry).ADMIN_TOKEN!;
    ({ key } = await createDevKey({
      registryUrl: temp.stack.urls.registry,
      adminToken,
      name: 'playground agents e2e',
      permissions: ['chat', 'read'],
    }));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await temp?.dispose();
  });

  it('asks the specialist, shows the steps and its answer, and links to its page in the explorer', async () => {
    const page = await browser.newPage();
    await page.goto(`${temp.stack.urls.client}/#playground`);
    await page.getByLabel('API key (chat permission)').fill(key);
    await page.getByLabel('API key (chat permission)').press('Tab');
    await page.getByRole('radio', { name: 'Agents' }).check();
    await page.getByText('llm1-agentic finds the agent for your question').waitFor({ timeout: 30_000 });
    await page.getByLabel('Message').fill('What was NVIDIA’s revenue in fiscal 2024?');
    await page.getByRole('button', { name: 'Send' }).click();

    const reply = page.locator('.playground-reply[data-streaming="false"]');
    await reply.waitFor({ timeout: 90_000 });
    expect(await reply.locator('li[data-step]').evaluateAll((items) => items.map((item) => item.getAttribute('data-step')))).toEqual([
      'search',
      'choose',
      'sent',
      'acknowledged',
      'answered',
    ]);
    expect(await reply.locator('.playground-content').innerText()).toMatch(NVIDIA_FY2024_REVENUE);

    const link = reply.locator('li[data-step="choose"] a');
    expect(await link.getAttribute('href')).toBe(`#explorer/${temp.stack.specialistAddress}`);
    await link.click();
    await page.locator('.agent-view-address', { hasText: temp.stack.specialistAddress }).waitFor({ timeout: 30_000 });
    await page.close();
  });

  it('with a chat-only key, a three-turn conversation keeps its subject: the period, then the figure change', async () => {
    const adminToken = readDevVars(secretsFiles(ROOT, `${temp.dir}/secrets`).registry).ADMIN_TOKEN!;
    const chatOnly = await createDevKey({
      registryUrl: temp.stack.urls.registry,
      adminToken,
      name: 'playground chat only',
      permissions: ['chat'],
    });
    const page = await browser.newPage();
    await page.goto(`${temp.stack.urls.client}/#playground`);
    await page.getByLabel('API key (chat permission)').fill(chatOnly.key);
    await page.getByLabel('API key (chat permission)').press('Tab');
    await page.getByRole('radio', { name: 'Agents' }).check();
    await page.getByText('llm1-agentic finds the agent for your question').waitFor({ timeout: 30_000 });

    const turns: [string, RegExp][] = [
      ['What was NVIDIA’s revenue in fiscal 2024?', /Revenue: \$60\.92B in FY2024/],
      ['And in fiscal 2023?', /Revenue: \$26\.97B in FY2023/],
      ['What about net income?', /Net income: \$4\.37B in FY2023/],
    ];
    for (const [index, [question, figure]] of turns.entries()) {
      await page.getByLabel('Message').fill(question);
      await page.getByRole('button', { name: 'Send' }).click();
      const done = page.locator('.playground-reply[data-streaming="false"]');
      await expect.poll(() => done.count(), { timeout: 90_000 }).toBe(index + 1);
      const content = await done.last().locator('.playground-content').innerText();
      expect(content).toMatch(figure);
      expect(content).toContain('a third-party agent verified by this platform’s operator');
    }
    await page.close();
  });
});
