import { env } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { requestEnvelope, send } from './helpers/envelopes.ts';
import { installFakeNetwork } from './helpers/fake-network.ts';

beforeEach(() => {
  installFakeNetwork();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const question = () => requestEnvelope({ request: 'What was Apple revenue in 2024?' });

/** Spec §7: any exception while handling POST /webhook is a 500 `{status:'error', message}`, not only a queueing failure. */
describe('specialist POST /webhook: an exception while handling', () => {
  it('in the replay ledger, before the handler: 500 {status: error, message}', async () => {
    vi.spyOn(env.REPLAY_LEDGER, 'idFromName').mockImplementation(() => {
      throw new Error('ledger unavailable');
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const response = await send(question());
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ status: 'error', message: expect.any(String) });
  });

  it('says nothing of the internals', async () => {
    vi.spyOn(env.REPLAY_LEDGER, 'idFromName').mockImplementation(() => {
      throw new Error('secret internals');
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const body = JSON.stringify(await (await send(question())).json());
    expect(body).not.toContain('secret internals');
  });
});
