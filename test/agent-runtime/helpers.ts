import { env, SELF } from 'cloudflare:test';
import { expect, vi } from 'vitest';
import type { ObservedEvent } from './fixture/observer.ts';

export const BASE = 'http://fixture.test';

export async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return SELF.fetch(`${BASE}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export async function postJson<T>(path: string, body: unknown): Promise<T> {
  const response = await post(path, body);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as T;
}

export async function addressOf(agent: 'alice' | 'bob' | 'carol'): Promise<string> {
  const response = await SELF.fetch(`${BASE}/test/${agent}/address`);
  return ((await response.json()) as { address: string }).address;
}

export async function events(filter: { agent?: string; kind?: string; session?: string }): Promise<ObservedEvent[]> {
  const query = new URLSearchParams(Object.entries(filter).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const response = await SELF.fetch(`${BASE}/test/events?${query}`);
  return ((await response.json()) as { events: ObservedEvent[] }).events;
}

/** Waits until `filter` has seen `count` events, then a little longer to catch duplicates; returns them. */
export async function settle(
  filter: { agent?: string; kind?: string; session?: string },
  count: number,
  timeout = 30_000,
): Promise<ObservedEvent[]> {
  await vi.waitFor(async () => expect((await events(filter)).length).toBeGreaterThanOrEqual(count), { timeout, interval: 100 });
  await new Promise((resolve) => setTimeout(resolve, 1500));
  return events(filter);
}

export function errorOf(body: unknown): { message: string; type: string; code: string | null } {
  return (body as { error: { message: string; type: string; code: string | null } }).error;
}

/** Sends resolve peers through the registry: wait until the fixture's agents (registering on the first request) are in its almanac. */
export async function agentsRegistered(): Promise<void> {
  for (const name of ['alice', 'bob', 'carol'] as const) {
    const address = await addressOf(name);
    await vi.waitFor(async () => expect((await env.REGISTRY.fetch(`http://registry.test/v1/almanac/agents/${address}`)).status).toBe(200), {
      timeout: 20_000,
      interval: 200,
    });
  }
}
