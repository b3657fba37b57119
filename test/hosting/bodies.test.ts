import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { accountKey, createAgent } from './helpers.ts';

/**
 * A body that sends `bytes` and then never ends: an endpoint that reads bodies whole before judging their
 * size waits for it forever; one that counts as the body streams refuses it once past its bound (issue 22).
 */
function endlessBody(bytes: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= bytes) return new Promise<void>(() => {});
      const chunk = new Uint8Array(64 * 1024).fill(0x20);
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
}

async function statusWithin(path: string, method: string, key: string | null, bytes: number): Promise<number> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key) headers.authorization = `Bearer ${key}`;
  const response = await Promise.race([
    SELF.fetch(`http://hosting.test${path}`, { method, headers, body: endlessBody(bytes) }),
    new Promise<null>((resolve) => setTimeout(() => resolve(null), 10_000)),
  ]);
  if (response === null) return 0;
  await response.body?.cancel();
  return response.status;
}

describe('bodies are judged before they are read whole', () => {
  it('every hosting endpoint that takes a body refuses an oversized one as it streams (413), never waiting for its end', async () => {
    const key = await accountKey();
    const agent = await createAgent(key, 'bodies');
    const endpoints: [string, string, string | null, number][] = [
      ['POST', '/v1/hosting/submit', null, 2 * 1024 * 1024],
      ['POST', '/v1/hosting/agents', key, 2 * 1024 * 1024],
      ['PUT', `/v1/hosting/agents/${agent.address}`, key, 2 * 1024 * 1024],
      ['PUT', `/v1/hosting/agents/${agent.address}/code`, key, 4 * 1024 * 1024],
      ['PUT', `/v1/hosting/agents/${agent.address}/storage/k`, key, 2 * 1024 * 1024],
      ['POST', '/v1/hosting/secrets', key, 2 * 1024 * 1024],
      ['POST', `/v1/hosting/agents/${agent.address}/duplicate`, key, 2 * 1024 * 1024],
    ];
    for (const [method, path, caller, bytes] of endpoints)
      expect(await statusWithin(path, method, caller, bytes), `${method} ${path}`).toBe(413);
  });

  it('a declared Content-Length over the bound is refused before any of the body is read', async () => {
    const response = await SELF.fetch('http://hosting.test/v1/hosting/submit', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(30 * 1024 * 1024) },
      body: endlessBody(0),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ detail: 'envelope is larger than 1 MiB' });
  });
});
