import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { model } from '../../lib/agent/model.ts';
import { buildEnvelope, MemoryReplayGuard, parseEnvelope, serializeEnvelope, verifyEnvelope } from '../../lib/envelope/index.ts';
import { Identity } from '../../lib/identity/index.ts';
import { z } from 'zod';
import type { HostedAgentSummary } from '../../schemas/hosting.ts';
import { EXAMPLE_NAME } from '../../scripts/stack/hosting-example.ts';
import { createTempStack, type TempStack } from './helpers/temp-stack.ts';

const Greeting = model('Greeting', z.object({ text: z.string() }));
const Reply = model('Reply', z.object({ text: z.string(), count: z.number() }));

describe('npm start: the hosting Worker with its example hosted agent', () => {
  let temp: TempStack;

  beforeAll(async () => {
    temp = await createTempStack();
    for (const name of ['registry', 'hosting'] as const) await temp.stack.start(name);
  });
  afterAll(async () => {
    await temp?.dispose();
  });

  it('created, started and registered the example; it answers a signed Greeting through {base_url}/v1/hosting/submit', async () => {
    const key = readFileSync(join(temp.dir, 'state', 'hosting-example-key'), 'utf8').trim();
    const registry = temp.stack.urls.registry;
    const page = (await (await fetch(`${registry}/v1/hosting/agents`, { headers: { authorization: `Bearer ${key}` } })).json()) as { items: HostedAgentSummary[] };
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
