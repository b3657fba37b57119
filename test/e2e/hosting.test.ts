import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { model } from '../../lib/agent/model.ts';
import { MemoryReplayGuard, parseEnvelope, verifyEnvelope } from '../../lib/envelope/index.ts';
import { z } from 'zod';
import type { HostedAgentSummary } from '../../schemas/hosting.ts';
import { createdKeySchema } from '../../schemas/keys.ts';
import { readDevVars } from '../../scripts/stack/dev-vars.ts';
import { EXAMPLE_NAME } from '../../scripts/stack/hosting-example.ts';
import { secretsFiles } from '../../scripts/stack/secrets.ts';
import { ROOT } from '../../scripts/stack/stack.ts';
import { createFromTemplate, hostedAgentAddress, hostingStackWithBrowser, saveAndStart, sendGreeting } from './helpers/hosting-screen.ts';

const Reply = model('Reply', z.object({ text: z.string(), count: z.number() }));

describe('npm start: the hosting Worker with its example hosted agent', () => {
  const running = hostingStackWithBrowser();

  const exampleKey = () => readFileSync(join(running.temp.dir, 'state', 'hosting-example-key'), 'utf8').trim();

  /** Sends a signed Greeting through the registry's submit URL and returns the verified reply's payload. */
  async function greet(address: string, text: string): Promise<unknown> {
    const { sender, session, response } = await sendGreeting(running.temp.stack.urls.registry, address, text);
    expect(response.status).toBe(200);
    const parsed = parseEnvelope(await response.text());
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.envelope).toMatchObject({ sender: address, target: sender.address, session, schema_digest: Reply.digest });
    const verified = await verifyEnvelope(parsed.envelope, { self: sender.address, replay: new MemoryReplayGuard() });
    if (!verified.ok) throw new Error(verified.message);
    return verified.payload;
  }

  it('the Hosted agents screen: create from the template, save, start, then a message shows in its logs and storage', async () => {
    const page = await createFromTemplate(running.browser, running.temp.stack.urls.client, {
      key: exampleKey(),
      name: 'browser agent',
      templateLine: "defineAgent({ name: 'my agent' })",
    });
    await page.getByText(EXAMPLE_NAME).waitFor();
    await saveAndStart(page);
    await page.getByTestId('agent-logs').getByText('my agent is up at').waitFor({ timeout: 15_000 });

    const created = await hostedAgentAddress(running.temp.stack.urls.registry, exampleKey(), 'browser agent');
    expect(await greet(created, 'browser')).toEqual({ text: 'hello, browser', count: 1 });
    await page.getByTestId('agent-logs').getByText('greeting 1 from').waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'storage', exact: true }).click();
    await page.getByRole('cell', { name: 'greetings', exact: true }).waitFor();
    await page.close();
  });

  it('the Hosted agents screen says when an account has no agent, opens one by keyboard, and says why when the list fails', async () => {
    const { client, registry } = running.temp.stack.urls;
    const adminToken = readDevVars(secretsFiles(ROOT, join(running.temp.dir, 'secrets')).registry).ADMIN_TOKEN!;
    const created = await fetch(`${registry}/v1/keys`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'empty hosting account', permissions: ['hosting'] }),
    });
    const emptyKey = createdKeySchema.parse(await created.json()).key;
    const page = await running.browser.newPage({ viewport: { width: 1100, height: 900 } });
    await page.goto(`${client}#hosting`);
    const keyField = page.getByLabel('API key with the hosting permission');
    await keyField.fill(emptyKey);
    await keyField.press('Tab');
    await page.getByText('No hosted agents yet: create one from a template above.').waitFor();

    // The example's account: its agent opens from the keyboard alone (Tab to its name, Enter).
    await keyField.fill(exampleKey());
    await keyField.press('Tab');
    const name = page.getByRole('button', { name: EXAMPLE_NAME, exact: true });
    await name.waitFor();
    await name.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading').filter({ hasText: EXAMPLE_NAME }).waitFor();

    // The hosting API unreachable: the screen says why and keeps its key field, instead of failing whole.
    await page.route(
      (url) => url.pathname === '/v1/hosting/agents',
      (route) => route.abort('connectionrefused'),
    );
    await page.reload();
    await page
      .getByRole('alert')
      .getByText(/^Cannot list hosted agents: /)
      .waitFor();
    await keyField.waitFor();
    await page.close();
  });

  it('created, started and registered the example; it answers a signed Greeting through {base_url}/v1/hosting/submit', async () => {
    const key = exampleKey();
    const registry = running.temp.stack.urls.registry;
    const page = (await (await fetch(`${registry}/v1/hosting/agents`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
      items: HostedAgentSummary[];
    };
    const example = page.items.find((item) => item.name === EXAMPLE_NAME);
    expect(example).toMatchObject({ running: true, compiled: true });
    const almanac = (await (await fetch(`${registry}/v1/almanac/agents/${example!.address}`)).json()) as { endpoints: { url: string }[] };
    expect(almanac.endpoints.map((endpoint) => endpoint.url)).toEqual([`${registry}/v1/hosting/submit`]);

    expect(await greet(example!.address, 'from e2e')).toEqual({ text: 'echo: from e2e', count: 1 });
  });
});
