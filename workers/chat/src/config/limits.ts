import { envCount } from '../../../../lib/config/env-number.ts';
import type { KeyLimits as RegistryLimits } from '../../../../schemas/keys.ts';

/** Per-key limits: the key's own (from the registry) or the deployment's defaults (vars). */
export interface KeyLimits {
  requestsPerMinute: number;
  tokensPerMinute: number;
}

export function resolveLimits(env: { DEFAULT_RPM?: string; DEFAULT_TPM?: string }, own?: RegistryLimits | null): KeyLimits {
  const defaults = { requestsPerMinute: envCount(env.DEFAULT_RPM, 60), tokensPerMinute: envCount(env.DEFAULT_TPM, 100_000) };
  return {
    requestsPerMinute: envCount(own?.requests_per_minute, defaults.requestsPerMinute),
    tokensPerMinute: envCount(own?.tokens_per_minute, defaults.tokensPerMinute),
  };
}
