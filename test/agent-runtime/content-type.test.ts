import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { expectSameRefusalWhateverTheLabel, REFUSED_BODIES, withContentType, WRONG_CONTENT_TYPES } from '../support/content-types.ts';
import { BASE } from './helpers.ts';

// Bytes, not a string: fetch would label a string body text/plain by itself.
const sender = (path: string) => (body: string, contentType: string | null) =>
  SELF.fetch(`${BASE}${path}`, { method: 'POST', headers: withContentType(contentType), body: new TextEncoder().encode(body) });

/** lib/agent's JSON endpoints (an agent's webhook, its custom POST routes) read their bodies whatever the Content-Type says. */
describe('agent runtime: a JSON body is read whatever its Content-Type', () => {
  it.each(['/alice/echo', '/alice/webhook'])('%s refuses a bad body the same with a wrong or missing label', async (path) => {
    for (const body of [...REFUSED_BODIES, JSON.stringify({ text: 5 })]) {
      await expectSameRefusalWhateverTheLabel(sender(path), body, `${path} ${body}`);
    }
  });

  it('a custom POST route takes a good body without the label', async () => {
    for (const contentType of WRONG_CONTENT_TYPES) {
      const response = await sender('/alice/echo')(JSON.stringify({ text: 'hello' }), contentType);
      expect(response.status, `Content-Type ${contentType ?? '(none)'}`).toBe(200);
      expect(await response.json()).toEqual({ text: 'hello', length: 5 });
    }
  });
});
