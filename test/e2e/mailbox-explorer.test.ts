import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEnvelope, serializeEnvelope } from '../../lib/envelope/index.ts';
import { Identity } from '../../lib/identity/index.ts';
import { registerAgent } from '../../lib/registry-client/index.ts';
import { createDevKey } from '../../scripts/dev/bootstrap-key.ts';
import { readDevVars } from '../../scripts/stack/dev-vars.ts';
import { launchBrowser } from './helpers/browser.ts';
import { screenshotPath } from './helpers/screenshots.ts';
import { createTempStack, type TempStack } from './helpers/temp-stack.ts';

/** The explorer shows how an agent receives messages, its owner the mailbox's pending count, and how to connect a local agent. */
describe('the explorer and mailbox agents, in a browser', () => {
  let temp: TempStack;
  let browser: Browser;
  let registry: string;
  let owner: string;
  let stranger: string;
  const seed = `explorer mailbox agent ${crypto.randomUUID()}`;
  const agent = Identity.fromSeed(seed, 0);

  beforeAll(async () => {
    temp = await createTempStack();
    for (const name of ['registry', 'client'] as const) await temp.stack.start(name);
    registry = temp.stack.urls.registry;
    const adminToken = readDevVars(join(temp.dir, 'secrets', 'registry.dev.vars')).ADMIN_TOKEN!;
    owner = (await createDevKey({ registryUrl: registry, adminToken, name: 'owner', permissions: ['read', 'write'] })).key;
    stranger = (await createDevKey({ registryUrl: registry, adminToken, name: 'stranger', permissions: ['read', 'write'] })).key;
    await registerAgent({
      seed,
      url: `${registry}/v2/agents/mailbox/submit`,
      token: owner,
      title: 'Laptop agent',
      readme: '# Laptop agent\n\nConnected by mailbox.',
      registryUrl: registry,
    });
    const sender = Identity.fromSeed('explorer mailbox sender', 0);
    for (const text of ['one', 'two']) {
      const envelope = buildEnvelope({ sender, target: agent.address, schemaDigest: `model:${'c'.repeat(64)}`, payload: { text } });
      const stored = await fetch(`${registry}/v2/agents/mailbox/submit`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: serializeEnvelope(envelope),
      });
      expect(stored.status).toBe(200);
    }
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await temp?.dispose();
  });

  async function openAgentPage(key: string) {
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 }, colorScheme: 'light' });
    await page.addInitScript((value) => sessionStorage.setItem('rendezvous.apiKey', value), key);
    await page.goto(`${temp.stack.urls.client}/#explorer/${agent.address}`);
    await page.getByRole('heading', { name: 'Laptop agent', level: 2 }).waitFor();
    return page;
  }

  it('the owner sees that the agent receives by mailbox, how many messages wait and since when', async () => {
    const page = await openAgentPage(owner);
    await expect.poll(() => page.getByTestId('delivery').textContent()).toMatch(/^Mailbox: messages wait here/);
    await expect.poll(() => page.getByTestId('mailbox-pending').textContent()).toMatch(/^2 waiting, oldest .+ \(keeps 1000 for 7 days\)$/);
    await page.screenshot({ path: screenshotPath('agent-mailbox.png'), fullPage: true });
    await page.close();
  });

  it('another account’s key sees how the agent receives messages, not its inbox', async () => {
    const page = await openAgentPage(stranger);
    await expect.poll(() => page.getByTestId('delivery').textContent()).toMatch(/^Mailbox/);
    // The inbox status answered 403 to this key: the page shows no pending count.
    await page.waitForLoadState('networkidle');
    expect(await page.getByTestId('mailbox-pending').count()).toBe(0);
    await page.close();
  });

  it('the explorer shows how to connect a local agent by mailbox to this registry', async () => {
    const page = await browser.newPage();
    await page.addInitScript((value) => sessionStorage.setItem('rendezvous.apiKey', value), owner);
    await page.goto(`${temp.stack.urls.client}/#explorer`);
    await page.getByText('Connect a local agent').click();
    const code = await page.locator('.connect-guide pre').textContent();
    expect(code).toContain('mailbox=True');
    expect(code).toContain(`agentverse="${registry}"`);
    await page.close();
  });
});
