import { beforeAll, describe, expect, it } from 'vitest';
import type { Identity } from '../../lib/identity/index.ts';
import { errorBodySchema } from '../../schemas/http.ts';
import { detailErrorSchema } from '../../schemas/registry.ts';
import { api, freshIdentity, json, migrate, newKey, prove, registrationBody } from './helpers.ts';

beforeAll(migrate);

/** A registration of `bytes` bytes: valid but for a padding field of no meaning. */
const oversized = (agent: Identity, bytes: number) => {
  const text = JSON.stringify(registrationBody(agent));
  return `${text.slice(0, -1)},"padding":"${'x'.repeat(bytes - text.length)}"}`;
};

/** Sent with its Content-Length, and as a stream without one (counted as it arrives). */
const bothWays = (path: string, token: string, body: string) => [
  api(path, { method: 'POST', token, headers: { 'content-type': 'application/json' }, body }),
  api(path, {
    method: 'POST',
    token,
    headers: { 'content-type': 'application/json' },
    body: new Blob([body]).stream(),
    duplex: 'half',
  } as RequestInit),
];

describe('JSON bodies over 1 MiB are refused before they are read whole', () => {
  it('registration: 413 {detail}, nothing registered', async () => {
    const { key } = await newKey(['read', 'write']);
    const agent = freshIdentity();
    expect((await prove(agent, key)).status).toBe(200);
    for (const response of bothWays('/v2/agents', key, oversized(agent, 2 * 1024 * 1024))) {
      const answer = await response;
      expect(answer.status).toBe(413);
      expect(detailErrorSchema.parse(await json(answer)).detail).toContain('larger than');
    }
    expect((await api(`/v2/agents/${agent.address}`, { token: key })).status).toBe(404);
  });

  it('key creation and search: 413 in the platform’s shape', async () => {
    const { key } = await newKey(['read', 'keys']);
    for (const path of ['/v1/keys', '/v1/search/agents']) {
      for (const response of bothWays(path, key, `{"name":"x","search_text":"${'y'.repeat(1024 * 1024 + 1)}"}`)) {
        const answer = await response;
        expect(answer.status, path).toBe(413);
        expect(errorBodySchema.parse(await json(answer)).error).toMatchObject({ code: 'request_too_large' });
      }
    }
  });
});
