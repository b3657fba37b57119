import { senderRatePerMinute } from './sender-rate-limiter.ts';

/**
 * SENDER_BUDGETS: `address:perMinute` pairs (separated by commas or white space) for senders that ask on
 * behalf of many users, such as the operator's own router, whose per-client limit already bounds each
 * user. Every other sender, and an entry whose budget is not a number, gets SENDER_REQUESTS_PER_MINUTE.
 */
export function senderBudget(env: Pick<SpecialistEnv, 'SENDER_BUDGETS' | 'SENDER_REQUESTS_PER_MINUTE'>, sender: string): number {
  for (const entry of env.SENDER_BUDGETS.split(/[\s,]+/)) {
    const at = entry.lastIndexOf(':');
    if (at > 0 && entry.slice(0, at) === sender) return senderRatePerMinute(entry.slice(at + 1), env.SENDER_REQUESTS_PER_MINUTE);
  }
  return senderRatePerMinute(env.SENDER_REQUESTS_PER_MINUTE);
}
