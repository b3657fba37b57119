import { env, SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { Identity } from '../../lib/identity/index.ts';

describe('chat /health', () => {
  it('names the worker and its version', async () => {
    const response = await SELF.fetch('http://chat.test/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ok', name: 'chat', version: expect.any(String) });
  });

  it('names the chat agent’s address (llm1-agentic), the identity its seed derives', async () => {
    const seed = env.CHAT_AGENT_SEED;
    const response = await SELF.fetch('http://chat.test/health');
    expect(await response.json()).toMatchObject({ address: Identity.fromSeed(seed, 0).address });
  });

  it('answers an unknown route with a JSON 404', async () => {
    const response = await SELF.fetch('http://chat.test/nope');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { type: 'not_found' } });
  });
});
