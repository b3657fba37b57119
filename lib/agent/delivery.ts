import { policyFetch } from '../net/index.ts';
import type { BoundAgent } from './bound.ts';
import type { DeliveryFailureCode } from './delivery-failure.ts';

/** The uAgents header asking the receiver to answer with its reply envelope in the HTTP response. */
export const SYNC_HEADER = 'x-uagents-connection';

export type Delivery =
  | { kind: 'delivered'; endpoint: string; status: number; body: string; duplicate: boolean }
  /**
   * Worth trying again later: the receiver or the network failed, or the target is not known yet.
   * `retryAfterMs`: when the receiver said (its Retry-After header). `connectionLost`: the connection dropped or
   * was refused (workerd's "Network connection lost." for both: a closed pooled connection, a dead receiver).
   */
  | { kind: 'retry'; endpoint: string | null; detail: string; code: DeliveryFailureCode; retryAfterMs?: number; connectionLost?: boolean }
  /** Will not succeed by retrying: the receiver refused the envelope, or the URL is not allowed. */
  | { kind: 'refused'; endpoint: string | null; detail: string; code: DeliveryFailureCode };

const TRANSIENT_STATUSES = new Set([408, 425, 429]);
const CONNECTION_LOST = /connection lost/i;

/** Redirects a delivery follows (http to https, a moved webhook), each hop checked by the URL policy. */
const MAX_REDIRECTS = 3;

/** A Retry-After header (seconds, or an HTTP date) in milliseconds from now; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  // An HTTP date names its day and month; bare numbers like "-3" are not dates.
  const at = /[a-z]/i.test(header) ? Date.parse(header) : Number.NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function refusalCode(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown } };
    return typeof parsed.error?.code === 'string' ? parsed.error.code : null;
  } catch {
    return null;
  }
}

/**
 * POSTs a signed envelope to the target's endpoints, best first. A receiver that answers 409 `replayed`
 * already has this envelope (an earlier attempt got through but its answer was lost): delivered.
 */
export async function deliverEnvelope<Env>(
  agent: BoundAgent<Env>,
  target: string,
  envelopeJson: string,
  options: { sync?: boolean; timeoutMs?: number } = {},
): Promise<Delivery> {
  let endpoints: string[];
  try {
    endpoints = await agent.resolver.resolve(target);
  } catch (error) {
    // An unknown target may be about to register: worth another try.
    return { kind: 'retry', endpoint: null, detail: `cannot resolve ${target}: ${(error as Error).message}`, code: 'unresolvable' };
  }
  let last: Delivery = { kind: 'refused', endpoint: null, detail: `${target} has no endpoint`, code: 'unresolvable' };
  for (const endpoint of endpoints) {
    let response: Response;
    try {
      const sent = await policyFetch(
        endpoint,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(options.sync ? { [SYNC_HEADER]: 'sync' } : {}) },
          body: envelopeJson,
          signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
        },
        { policy: agent.policy, fetch: agent.fetch, maxRedirects: MAX_REDIRECTS },
      );
      if (!sent.ok) {
        last = { kind: 'refused', endpoint, detail: sent.message, code: 'url_refused' };
        continue;
      }
      response = sent.response;
    } catch (error) {
      agent.resolver.invalidate(target);
      const code = (error as Error).name === 'TimeoutError' ? 'timeout' : 'no_answer';
      const message = (error as Error).message;
      last = {
        kind: 'retry',
        endpoint,
        detail: `${endpoint} did not answer: ${message}`,
        code,
        connectionLost: CONNECTION_LOST.test(message),
      };
      continue;
    }
    const body = await response.text();
    if (response.ok) return { kind: 'delivered', endpoint, status: response.status, body, duplicate: false };
    if (response.status === 409 && refusalCode(body) === 'replayed')
      return { kind: 'delivered', endpoint, status: response.status, body, duplicate: true };
    const detail = `${endpoint} answered ${response.status}: ${body.slice(0, 300)}`;
    if (response.status >= 500 || TRANSIENT_STATUSES.has(response.status)) {
      agent.resolver.invalidate(target);
      last = {
        kind: 'retry',
        endpoint,
        detail,
        code: `http_${response.status}`,
        retryAfterMs: retryAfterMs(response.headers.get('retry-after')),
      };
      continue;
    }
    // The receiver read the envelope and refused it: every endpoint of that agent would.
    return { kind: 'refused', endpoint, detail, code: `http_${response.status}` };
  }
  return last;
}
