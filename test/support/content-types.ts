import fc from 'fast-check';
import { expect } from 'vitest';

/**
 * Content-Types a JSON body may arrive with that do not say JSON: none (fetch with a string body, curl),
 * the usual wrong ones, and random media types (seeded, so a failure reproduces).
 */
export const WRONG_CONTENT_TYPES: (string | null)[] = [
  null,
  'text/plain',
  'text/plain;charset=UTF-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  'text/json',
  'application/jsonx',
  ...fc.sample(
    fc
      .stringMatching(/^[a-z]{1,12}\/[a-z.+-]{1,16}(; ?[a-z]{1,8}=[a-z0-9-]{1,8})?$/)
      .filter((type) => !/^application\/([\w.-]+\+)?json\b/.test(type)),
    { numRuns: 4, seed: 20261123 },
  ),
];

/** Bodies no JSON endpoint takes: not JSON at all, and JSON that is not an object. Each must be refused, never read as empty. */
export const REFUSED_BODIES = ['{not json', '[1]', '"text"'];

export type Send = (body: string, contentType: string | null) => Response | Promise<Response>;

/**
 * Sends `body` labelled JSON, then with each wrong or missing Content-Type: every answer must be the same
 * refusal (a 4xx, same status, same body), so the body was read whatever its label.
 */
export async function expectSameRefusalWhateverTheLabel(send: Send, body: string, what: string): Promise<void> {
  const labelled = await send(body, 'application/json');
  const expected = { status: labelled.status, body: await labelled.json() };
  expect(expected.status, `${what} labelled JSON`).toBeGreaterThanOrEqual(400);
  expect(expected.status, `${what} labelled JSON`).toBeLessThan(500);
  for (const contentType of WRONG_CONTENT_TYPES) {
    const response = await send(body, contentType);
    const answer = { status: response.status, body: await response.json() };
    expect(answer, `${what} with Content-Type ${contentType ?? '(none)'}`).toEqual(expected);
  }
}

/** The headers of a request whose body carries `contentType` (none when null). */
export function withContentType(contentType: string | null, headers: Record<string, string> = {}): Headers {
  const result = new Headers(headers);
  if (contentType !== null) result.set('content-type', contentType);
  return result;
}
