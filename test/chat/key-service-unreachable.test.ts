import { createExecutionContext, env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../workers/chat/src/index.ts';

const TOKEN = `rdv_0123456789abcdef_${'s'.repeat(43)}`;

/** The chat Worker with its key meters answering as `authenticate` does (the key service behind them unreachable). */
function chatWithMeters(authenticate: () => Promise<unknown>) {
  const meters = { idFromName: (name: string) => name, get: () => ({ authenticate }) };
  const request = new Request('http://chat.test/v1/models', { headers: { authorization: `Bearer ${TOKEN}` } });
  return worker.fetch(request, { ...env, KEY_METER: meters } as unknown as typeof env, createExecutionContext());
}

describe('an unreachable key service', () => {
  it('is 503 auth_unavailable with retry-after when the key meter reports the registry unreachable', async () => {
    const response = await chatWithMeters(async () => ({ ok: false, status: 503, message: 'the key service is unreachable' }));
    expect(response.status).toBe(503);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await response.json()).toMatchObject({ error: { code: 'auth_unavailable', type: 'server_error' } });
  });

  it('is the same answer when the key meter itself cannot be reached', async () => {
    const response = await chatWithMeters(() => Promise.reject(new Error('meter down')));
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ error: { code: 'auth_unavailable' } });
  });
});
