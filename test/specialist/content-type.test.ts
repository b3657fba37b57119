import { SELF } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serializeEnvelope } from '../../lib/envelope/index.ts';
import { expectSameRefusalWhateverTheLabel, REFUSED_BODIES, withContentType, WRONG_CONTENT_TYPES } from '../support/content-types.ts';
import { requestEnvelope } from './helpers/envelopes.ts';
import { installFakeNetwork } from './helpers/fake-network.ts';

beforeEach(() => {
  installFakeNetwork();
});
afterEach(() => {
  vi.restoreAllMocks();
});

// Bytes, not a string: fetch would label a string body text/plain by itself.
const send = (body: string, contentType: string | null) =>
  SELF.fetch('http://specialist.test/webhook', {
    method: 'POST',
    headers: withContentType(contentType),
    body: new TextEncoder().encode(body),
  });

/** The specialist's one JSON endpoint, POST /webhook, reads its body whatever the Content-Type says. */
describe('specialist: a JSON body is read whatever its Content-Type', () => {
  it.each(REFUSED_BODIES)('refuses %s the same with a wrong or missing label', async (body) => {
    await expectSameRefusalWhateverTheLabel(send, body, body);
  });

  it('takes a question without the label', async () => {
    for (const contentType of WRONG_CONTENT_TYPES) {
      const response = await send(serializeEnvelope(requestEnvelope({ request: 'What was Apple revenue in 2024?' })), contentType);
      expect(response.status, `Content-Type ${contentType ?? '(none)'}`).toBe(200);
      expect(await response.json()).toEqual({ status: 'analysis_sent' });
    }
  });
});
