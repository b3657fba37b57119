import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { model } from '../../lib/agent/model.ts';
import { buildEnvelope, MemoryReplayGuard, parseEnvelope, serializeEnvelope, verifyEnvelope } from '../../lib/envelope/index.ts';
import { Identity } from '../../lib/identity/index.ts';
import { z } from 'zod';
import type { HostedAgentSummary } from '../../schemas/hosting.ts';
import { EXAMPLE_NAME } from '../../scripts/stack/hosting-example.ts';
import { launchBrowser } from './helpers/browser.ts';
import { createTempStack, type TempStack } from './helpers/temp-stack.ts';

const Greeting = model('Greeting', z.object({ text: z.string() }));
const Reply = model('Reply', z.object({ text: z.string(), count: z.number() }));

describe('npm start: the hosting Worker with its example hosted agent', () => {
  let temp: TempStack;
  let browser: Browser;

  beforeAll(async () => {
    temp = await createTempStack();
    for (const name of ['registry', 'vault', 'hosting', 'client'] as const) await temp.stack.start(name);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await temp?.dispose();
  });

  const exampleKey = () => readFileSync(join(temp.dir, 'state', 'hosting-example-key'), 'utf8').trim();

  /** Sends a signed Greeting through the registry's submit URL and returns the verified reply's payload. */
  async function greet(address: string, text: string): Promise<unknown> {
    const me = Identity.fromSeed(`e2e hosting sender ${crypto.randomUUID()}`, 0);
    const session = crypto.randomUUID();
    const envelope = buildEnvelope({
      sender: me,
      target: address,
      session,
      schemaDigest: Greeting.digest,
      payload: { text },
      expires: Math.floor(Date.now() / 1000) + 300,
      nonce: 1,
    });
    const response = await fetch(`${temp.stack.urls.registry}/v1/hosting/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-uagents-connection': 'sync' },
      body: serializeEnvelope(envelope),
    });
    expect(response.status).toBe(200);
    const parsed = parseEnvelope(await response.text());
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.envelope).toMatchObject({ sender: address, target: me.address, session, schema_digest: Reply.digest });
    const verified = await verifyEnvelope(parsed.envelope, { self: me.address, replay: new MemoryReplayGuard() });
    if (!verified.ok) throw new Error(verified.message);
    return verified.payload;
  }

  it('the Hosted agents screen: create from the template, save, start, then a message shows in its logs and storage', async () => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 1600 } });
    await page.goto(`${temp.stack.urls.client}#hosting`);
    await page.getByLabel('API key with the hosting permission').fill(exampleKey());
    await page.getByLabel('API key with the hosting permission').press('Tab');
    await page.getByText(EXAMPLE_NAME).waitFor();
    await page.getByLabel('New agent name').fill('browser agent');
    await page.getByRole('button', { name: 'Create from template' }).click();
    await page.getByTestId('code-editor').getByText("defineAgent({ name: 'my agent' })").waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('agent-state').getByText('saved, digest').waitFor();
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await page.getByTestId('agent-state').getByText('running · compiled: true').waitFor();
    await page.getByTestId('agent-logs').getByText('my agent is up at').waitFor({ timeout: 15_000 });

    const page2 = (await (
      await fetch(`${temp.stack.urls.registry}/v1/hosting/agents`, { headers: { authorization: `Bearer ${exampleKey()}` } })
    ).json()) as { items: HostedAgentSummary[] };
    const created = page2.items.find((item) => item.name === 'browser agent')!;
    expect(await greet(created.address, 'browser')).toEqual({ text: 'hello, browser', count: 1 });
    await page.getByTestId('agent-logs').getByText('greeting 1 from').waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'storage', exact: true }).click();
    await page.getByRole('cell', { name: 'greetings', exact: true }).waitFor();
    await page.close();
  });

  it('created, started and registered the example; it answers a signed Greeting through {base_url}/v1/hosting/submit', async () => {
    const key = readFileSync(join(temp.dir, 'state', 'hosting-example-key'), 'utf8').trim();
    const registry = temp.stack.urls.registry;
    const page = (await (await fetch(`${registry}/v1/hosting/agents`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
      items: HostedAgentSummary[];
    };
    const example = page.items.find((item) => item.name === EXAMPLE_NAME);
    expect(example).toMatchObject({ running: true, compiled: true });
    const almanac = (await (await fetch(`${registry}/v1/almanac/agents/${example!.address}`)).json()) as { endpoints: { url: string }[] };
    expect(almanac.endpoints.map((endpoint) => endpoint.url)).toEqual([`${registry}/v1/hosting/submit`]);

    const me = Identity.fromSeed(`e2e hosting sender ${Date.now()}`, 0);
    const session = crypto.randomUUID();
    const envelope = buildEnvelope({
      sender: me,
      target: example!.address,
      session,
      schemaDigest: Greeting.digest,
      payload: { text: 'from e2e' },
      expires: Math.floor(Date.now() / 1000) + 300,
      nonce: 1,
    });
    const response = await fetch(`${registry}/v1/hosting/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-uagents-connection': 'sync' },
      body: serializeEnvelope(envelope),
    });
    expect(response.status).toBe(200);
    const parsed = parseEnvelope(await response.text());
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.envelope).toMatchObject({ sender: example!.address, target: me.address, session, schema_digest: Reply.digest });
    const verified = await verifyEnvelope(parsed.envelope, { self: me.address, replay: new MemoryReplayGuard() });
    expect(verified).toMatchObject({ ok: true, payload: { text: 'echo: from e2e', count: 1 } });
  });
});
