import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { z } from 'zod';
import { model } from '../../../lib/agent/model.ts';
import { buildEnvelope, serializeEnvelope } from '../../../lib/envelope/index.ts';
import { Identity } from '../../../lib/identity/index.ts';
import type { HostedAgentSummary } from '../../../schemas/hosting.ts';
import { launchBrowser } from './browser.ts';
import { createTempStack, type TempStack } from './temp-stack.ts';

/** The message the Hosted agents screen's templates (TypeScript and Python) answer. */
const Greeting = model('Greeting', z.object({ text: z.string() }));

/**
 * Before the file's tests: a stack of its own with the registry, the hosting Worker and the client, and a browser;
 * both closed after. Its fields are set once the tests run.
 */
export function hostingStackWithBrowser(): { temp: TempStack; browser: Browser } {
  const running = {} as { temp: TempStack; browser: Browser };
  beforeAll(async () => {
    running.temp = await createTempStack();
    for (const name of ['registry', 'vault', 'hosting', 'client'] as const) await running.temp.stack.start(name);
    running.browser = await launchBrowser();
  });
  afterAll(async () => {
    await running.browser?.close();
    await running.temp?.dispose();
  });
  return running;
}

/**
 * The steps a person takes on the Hosted agents screen, shared by the e2e tests of each template language: open it
 * with a hosting key, create an agent from the template, wait for the editor to show it. Answers the page.
 */
export async function createFromTemplate(
  browser: Browser,
  clientUrl: string,
  agent: { key: string; name: string; language?: 'python'; templateLine: string },
): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1100, height: 1600 } });
  await page.goto(`${clientUrl}#hosting`);
  await page.getByLabel('API key with the hosting permission').fill(agent.key);
  await page.getByLabel('API key with the hosting permission').press('Tab');
  await page.getByLabel('New agent name').fill(agent.name);
  if (agent.language) await page.getByLabel('Language').selectOption(agent.language);
  await page.getByRole('button', { name: 'Create from template' }).click();
  await page.getByTestId('code-editor').getByText(agent.templateLine).waitFor();
  return page;
}

/** Saves the editor's code and starts the agent, as the screen's buttons do; waits for the screen to say it runs. */
export async function saveAndStart(page: Page, startTimeoutMs?: number): Promise<void> {
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByTestId('agent-state').getByText('saved, digest').waitFor();
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await page.getByTestId('agent-state').getByText('running · compiled: true').waitFor({ timeout: startTimeoutMs });
}

/** The address of the key's hosted agent of that name, from the hosting API's list. */
export async function hostedAgentAddress(registryUrl: string, key: string, name: string): Promise<string> {
  const response = await fetch(`${registryUrl}/v1/hosting/agents`, { headers: { authorization: `Bearer ${key}` } });
  const listed = (await response.json()) as { items: HostedAgentSummary[] };
  const agent = listed.items.find((item) => item.name === name);
  if (!agent) throw new Error(`no hosted agent named ${name}`);
  return agent.address;
}

/** Sends a signed Greeting to a hosted agent through the registry's submit URL, asking for the reply in the response. */
export async function sendGreeting(registryUrl: string, address: string, text: string) {
  const sender = Identity.fromSeed(`e2e hosting sender ${crypto.randomUUID()}`, 0);
  const session = crypto.randomUUID();
  const envelope = buildEnvelope({
    sender,
    target: address,
    session,
    schemaDigest: Greeting.digest,
    payload: { text },
    expires: Math.floor(Date.now() / 1000) + 300,
    nonce: 1,
  });
  const response = await fetch(`${registryUrl}/v1/hosting/submit`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-uagents-connection': 'sync' },
    body: serializeEnvelope(envelope),
  });
  return { sender, session, response };
}
