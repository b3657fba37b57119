import { envNumber } from '../../../lib/config/env-number.ts';
import { ChatClient } from './language-model/chat-client.ts';
import { EdgarClient } from './edgar/client.ts';
import { edgarRateLimiter, edgarRatePerSecond } from './edgar/rate-limiter.ts';
import type { Team } from './team/supervisor.ts';

const DEFAULT_EDGAR_BASE_URL = 'https://data.sec.gov';
const DEFAULT_TICKERS_URL = 'https://www.sec.gov/files/company_tickers.json';
const DEFAULT_SEARCH_URL = 'https://efts.sec.gov/LATEST/search-index';
const DEFAULT_USER_AGENT = 'Rendezvous demo admin@example.com';

/** The supervisor's team as the Worker's configuration makes it (wrangler.toml [vars] and secrets). */
export function teamFromEnv(env: SpecialistEnv): Team {
  const doFetch: typeof fetch = (input, init) => fetch(input, init);
  const baseUrl = (env.EDGAR_BASE_URL || DEFAULT_EDGAR_BASE_URL).replace(/\/+$/, '');
  const edgar = new EdgarClient({
    baseUrl,
    // data.sec.gov serves neither: the SEC has them on www.sec.gov and efts.sec.gov; a copy serves all at one base.
    tickersUrl:
      env.EDGAR_TICKERS_URL || (baseUrl === DEFAULT_EDGAR_BASE_URL ? DEFAULT_TICKERS_URL : `${baseUrl}/files/company_tickers.json`),
    searchUrl: env.EDGAR_SEARCH_URL || (baseUrl === DEFAULT_EDGAR_BASE_URL ? DEFAULT_SEARCH_URL : `${baseUrl}/LATEST/search-index`),
    userAgent: env.EDGAR_USER_AGENT || DEFAULT_USER_AGENT,
    maxRequestsPerSecond: edgarRatePerSecond(env.EDGAR_MAX_REQUESTS_PER_SECOND),
    cacheSeconds: envNumber(env.EDGAR_CACHE_SECONDS, 3600, { min: 0 }),
    limiter: edgarRateLimiter(env.EDGAR_RATE_LIMITER),
    fetch: doFetch,
  });
  const chat = env.CHAT_URL
    ? new ChatClient({
        baseUrl: env.CHAT_URL,
        apiKey: env.CHAT_API_KEY ?? '',
        model: env.CHAT_MODEL || 'llm1',
        timeoutMs: envNumber(env.CHAT_TIMEOUT_MS, 20_000),
        fetch: doFetch,
      })
    : null;
  // An optional secret: the generated Env has it only where .dev.vars declares it.
  const { TAVILY_API_KEY: tavilyApiKey } = env as Partial<Record<'TAVILY_API_KEY', string>>;
  return { edgar, chat, tavilyApiKey: tavilyApiKey || null, fetch: doFetch };
}
