import { HOSTED_CODE_MAX_BYTES } from '../../../schemas/hosting.ts';
import { ApiError } from '../../../lib/http/api-error.ts';

/**
 * What one tenant may hold on the platform (docs/security.md, "Quotas"). The operator sets each as a
 * plain variable of the hosting Worker; an unset or empty one takes its default here.
 */
export interface HostingQuotas {
  /** Hosted agents one account may have. */
  agentsPerAccount: number;
  /** Keys in one agent's storage. */
  storageKeysPerAgent: number;
  /** Bytes (UTF-8, keys and values) in one agent's storage. */
  storageBytesPerAgent: number;
  /** Bytes of log lines one agent keeps; the oldest lines go first. */
  logBytesPerAgent: number;
  /** Bytes of one agent's code (the JSON list of files as sent); at most HOSTED_CODE_MAX_BYTES. */
  codeBytes: number;
}

const DEFAULT_QUOTAS: HostingQuotas = {
  agentsPerAccount: 20,
  storageKeysPerAgent: 1000,
  storageBytesPerAgent: 10 * 1024 * 1024,
  logBytesPerAgent: 1024 * 1024,
  codeBytes: HOSTED_CODE_MAX_BYTES,
};

type QuotaVars = Pick<
  HostingEnv,
  | 'HOSTED_AGENTS_PER_ACCOUNT'
  | 'HOSTED_STORAGE_KEYS_PER_AGENT'
  | 'HOSTED_STORAGE_BYTES_PER_AGENT'
  | 'HOSTED_LOG_BYTES_PER_AGENT'
  | 'HOSTED_CODE_MAX_BYTES'
>;

/** A positive whole number from a variable, its default when unset; a wrong value is the operator's to fix, loudly. */
function quota(name: keyof QuotaVars, text: string | undefined, fallback: number, ceiling = Number.MAX_SAFE_INTEGER): number {
  if (text === undefined || text.trim() === '') return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1 || value > ceiling)
    throw new Error(`the hosting Worker's ${name} is ${JSON.stringify(text)}: set a whole number from 1 to ${ceiling}`);
  return value;
}

export function quotasOf(env: QuotaVars): HostingQuotas {
  return {
    agentsPerAccount: quota('HOSTED_AGENTS_PER_ACCOUNT', env.HOSTED_AGENTS_PER_ACCOUNT, DEFAULT_QUOTAS.agentsPerAccount),
    storageKeysPerAgent: quota('HOSTED_STORAGE_KEYS_PER_AGENT', env.HOSTED_STORAGE_KEYS_PER_AGENT, DEFAULT_QUOTAS.storageKeysPerAgent),
    storageBytesPerAgent: quota('HOSTED_STORAGE_BYTES_PER_AGENT', env.HOSTED_STORAGE_BYTES_PER_AGENT, DEFAULT_QUOTAS.storageBytesPerAgent),
    logBytesPerAgent: quota('HOSTED_LOG_BYTES_PER_AGENT', env.HOSTED_LOG_BYTES_PER_AGENT, DEFAULT_QUOTAS.logBytesPerAgent),
    codeBytes: quota('HOSTED_CODE_MAX_BYTES', env.HOSTED_CODE_MAX_BYTES, DEFAULT_QUOTAS.codeBytes, HOSTED_CODE_MAX_BYTES),
  };
}

/** Over a count quota (agents per account): 429, saying which and how to get below it. */
export const tooMany = (detail: string) => new ApiError({ status: 429, message: detail });

/** Over a storage quota: 507 Insufficient Storage, saying which; what was stored before stays. */
export const outOfStorage = (detail: string) => new ApiError({ status: 507, message: detail });
