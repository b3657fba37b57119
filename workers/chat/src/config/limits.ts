import { envNumber } from '../../../../lib/config/env-number.ts';
import type { KeyLimits as RegistryLimits } from '../../../../schemas/keys.ts';

/** Per-key limits: the key's own (from the registry) or the deployment's defaults (vars). */
export interface KeyLimits {
  requestsPerMinute: number;
  tokensPerMinute: number;
}

const positive = (value: unknown, fallback: number) => envNumber(value, fallback, { integer: true });

export function resolveLimits(env: { DEFAULT_RPM?: string; DEFAULT_TPM?: string }, own?: RegistryLimits | null): KeyLimits {
  const defaults = { requestsPerMinute: positive(env.DEFAULT_RPM, 60), tokensPerMinute: positive(env.DEFAULT_TPM, 100_000) };
  return {
    requestsPerMinute: positive(own?.requests_per_minute, defaults.requestsPerMinute),
    tokensPerMinute: positive(own?.tokens_per_minute, defaults.tokensPerMinute),
  };
}
