import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { model } from '../../lib/agent/model.ts';
import { MemoryReplayGuard, parseEnvelope, verifyEnvelope } from '../../lib/envelope/index.ts';
import { z } from 'zod';
import type { HostedAgentSummary } from '../../schemas/hosting.ts';
import { EXAMPLE_NAME } from '../../scripts/stack/hosting-example.ts';
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
