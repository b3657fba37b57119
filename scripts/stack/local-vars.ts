/** Where the stack's services answer. */
interface LocalUrls {
  registry: string;
  chat: string;
  edgar: string;
  specialist: string;
  router: string;
}

/**
 * The plain variables of the stack's Workers when they run locally: where each finds the others, and
 * private URLs allowed (local development only; the configs keep them off). `npm start` and bench:e2e's
 * Workers runtime start them with these.
 */
export function localVars(urls: LocalUrls, senders: { router: string; chatAgent: string }) {
  const local = { ALLOW_PRIVATE_URLS: 'true', REGISTRY_URL: urls.registry };
  return {
    registry: { ALLOW_PRIVATE_URLS: 'true' },
    chat: { ...local, CHAT_AGENT_WEBHOOK_URL: `${urls.chat}/agent/webhook` },
    specialist: {
      ...local,
      FINANCIAL_WEBHOOK_URL: `${urls.specialist}/webhook`,
      CHAT_URL: `${urls.chat}/v1`,
      EDGAR_BASE_URL: urls.edgar,
      EDGAR_TICKERS_URL: `${urls.edgar}/files/company_tickers.json`,
      EDGAR_SEARCH_URL: `${urls.edgar}/LATEST/search-index`,
      // The router and the chat agent (llm1-agentic) ask for all of their users (each limited by its own key's
      // rate): 100 a second each, not 2.
      SENDER_BUDGETS: `${senders.router}:6000,${senders.chatAgent}:6000`,
    },
    router: { ...local, PRIMARY_WEBHOOK_URL: `${urls.router}/webhook` },
    vault: {},
    hosting: { ...local, PUBLIC_URL: urls.registry },
  };
}
