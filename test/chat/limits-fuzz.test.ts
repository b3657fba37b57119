import { SELF } from 'cloudflare:test';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UsageReport } from '../../schemas/chat.ts';
import { errorBodySchema } from '../../schemas/http.ts';
import { createKey, post } from './helpers.ts';

/**
 * Seeded random requests that each break one of the chat API's caps (body size, message count, content
 * length, content parts, tool count, tool name and description, tool-call arguments), wrapped in otherwise
 * valid and varied requests. Each must be a 4xx in OpenAI's error shape, never a 5xx, and must cost the key
 * nothing: no usage recorded, no request or token taken from its rate window.
 */
const RUNS = 45;
const SEED = 20261123;

const MAX_MESSAGES = 1000;
const MAX_CONTENT = 500_000;
const MAX_PARTS = 100;
const MAX_TOOLS = 128;
const MAX_TOOL_DESCRIPTION = 20_000;
const MAX_BODY_BYTES = 4 * 1024 * 1024;

const word = fc.constantFrom('alpha', 'revenue', 'ποσό', '数据', '🌱', '"', '\\', '\n', '<b>', ' ');
const text = (min: number, max: number) => fc.array(word, { minLength: min, maxLength: max }).map((words) => words.join(' '));
/** Text of more than `limit` characters as zod counts them (code points: an emoji is one, though two UTF-16 units). */
const longerThan = (limit: number) =>
  fc.tuple(fc.nat(200), word).map(([extra, unit]) => unit.repeat(Math.ceil((limit + extra + 1) / [...unit].length)));

const message = fc.oneof(
  text(1, 8).map((content) => ({ role: 'user', content })),
  text(1, 8).map((content) => ({ role: 'system', content })),
  text(0, 8).map((content) => ({ role: 'assistant', content })),
);
const tool = (name: string) => ({ type: 'function', function: { name, description: 'looks things up' } });

type Breach = { limit: string; body: Record<string, unknown> };

/** One cap broken, placed among valid messages and tools. */
const breach: fc.Arbitrary<Breach> = fc
  .record({
    before: fc.array(message, { maxLength: 3 }),
    after: fc.array(message, { maxLength: 3 }),
    role: fc.constantFrom('user', 'system', 'developer'),
    stream: fc.boolean(),
    temperature: fc.double({ min: 0, max: 2, noNaN: true }),
    kind: fc.constantFrom('messages', 'content', 'parts_text', 'parts_count', 'tools', 'tool_name', 'description', 'arguments', 'body'),
    over: longerThan(MAX_CONTENT),
    half: longerThan(MAX_CONTENT / 2),
    overDescription: longerThan(MAX_TOOL_DESCRIPTION),
    overBody: longerThan(MAX_BODY_BYTES / 10),
    extraCount: fc.integer({ min: 1, max: 50 }),
    badName: fc.oneof(
      fc.string({ minLength: 65, maxLength: 80 }).map((s) => `t${s}`),
      fc.constantFrom('', 'a b', 'é', 'x'.repeat(65)),
    ),
  })
  .map(({ before, after, role, stream, temperature, kind, over, half, overDescription, overBody, extraCount, badName }) => {
    const wrap = (middle: unknown[], extra: Record<string, unknown> = {}) => ({
      model: 'llm1',
      messages: [...before, ...middle, ...after],
      stream,
      temperature,
      ...extra,
    });
    const ask = { role: 'user', content: 'echo: hi' };
    switch (kind) {
      case 'messages':
        return { limit: kind, body: wrap(Array.from({ length: MAX_MESSAGES + extraCount }, () => ask)) };
      case 'content':
        return { limit: kind, body: wrap([{ role, content: over }]) };
      case 'parts_text':
        return {
          limit: kind,
          body: wrap([
            {
              role,
              content: [
                { type: 'text', text: half },
                { type: 'text', text: half },
              ],
            },
          ]),
        };
      case 'parts_count':
        return {
          limit: kind,
          body: wrap([{ role, content: Array.from({ length: MAX_PARTS + extraCount }, () => ({ type: 'text', text: 'x' })) }]),
        };
      case 'tools':
        return { limit: kind, body: wrap([ask], { tools: Array.from({ length: MAX_TOOLS + extraCount }, (_, i) => tool(`t${i}`)) }) };
      case 'tool_name':
        return { limit: kind, body: wrap([ask], { tools: [tool('lookup'), tool(badName)] }) };
      case 'description':
        return {
          limit: kind,
          body: wrap([ask], {
            tools: [{ type: 'function', function: { name: 'lookup', description: overDescription } }],
          }),
        };
      case 'arguments': {
        const call = { id: 'c1', type: 'function', function: { name: 'lookup', arguments: over } };
        return {
          limit: kind,
          body: wrap([ask, { role: 'assistant', content: null, tool_calls: [call] }, { role: 'tool', tool_call_id: 'c1', content: 'ok' }]),
        };
      }
      default:
        // 'body': within every field cap, over the body cap: large tool parameters (a tool's size is bounded by the body).
        return {
          limit: kind,
          body: wrap([ask], {
            tools: Array.from({ length: 10 }, (_, i) => ({
              type: 'function',
              function: {
                name: `t${i}`,
                parameters: { type: 'object', description: overBody },
              },
            })),
          }),
        };
    }
  });

async function usage(key: string) {
  const response = await SELF.fetch('http://chat.test/v1/usage', { headers: { authorization: `Bearer ${key}` } });
  expect(response.status).toBe(200);
  return { report: UsageReport.parse(await response.json()), remaining: response.headers.get('x-ratelimit-remaining-requests') };
}

describe('fuzz: requests over the chat API’s caps', () => {
  it(`${RUNS} requests, each over one cap: a 4xx OpenAI error, never a 5xx, and the key is charged nothing`, {
    timeout: 300_000,
  }, async () => {
    const { key } = await createKey({ limits: { requests_per_minute: 5, tokens_per_minute: 20_000 } });
    const before = await usage(key);
    const cases = fc.sample(breach, { numRuns: RUNS, seed: SEED });
    const failures: string[] = [];
    for (const { limit, body } of cases) {
      const response = await post('/chat/completions', key, body);
      const parsed = errorBodySchema.safeParse(await response.json().catch(() => null));
      const expected = limit === 'body' ? 413 : 400;
      if (response.status !== expected || !parsed.success)
        failures.push(`${limit} → ${response.status} ${parsed.success ? '' : 'not an error body'}`);
    }
    expect(failures).toEqual([]);
    expect(new Set(cases.map((c) => c.limit)).size).toBe(9);
    // More refused requests than the key's 5 a minute: none of them was counted against it.
    expect(await usage(key)).toEqual(before);
    expect(
      (await post('/chat/completions', key, { model: 'llm1', messages: [{ role: 'user', content: 'echo: still here' }] })).status,
    ).toBe(200);
  });
});
