import { createEffect, createSignal, on, onCleanup, type Accessor } from 'solid-js';
import type { AgentSearchResponse } from '../../../schemas/search.ts';
import { searchAgents } from '../api/registry.ts';
import { INITIAL_QUERY, toSearchRequest, type SearchQuery } from './search-query.ts';

/** Typing settles for this long before a search is sent. */
const DEBOUNCE_MS = 250;

/**
 * Search as you type: a changed query starts a new search session (page 0, new search_id) after a short
 * pause; turning the page reuses the session's search_id, as the spec's pagination asks. Only the latest
 * request's answer is shown (earlier ones are aborted).
 */
export function createAgentSearch(token: Accessor<string>) {
  const [query, setQuery] = createSignal<SearchQuery>(INITIAL_QUERY);
  const [page, setPage] = createSignal(0);
  const [result, setResult] = createSignal<AgentSearchResponse | null>(null);
  const [loading, setLoading] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  let searchId: string | undefined;
  let inFlight: AbortController | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  async function run() {
    const key = token();
    inFlight?.abort();
    if (!key) {
      setResult(null);
      return;
    }
    const controller = new AbortController();
    inFlight = controller;
    setLoading(true);
    try {
      const answer = await searchAgents(key, toSearchRequest(query(), page(), searchId), controller.signal);
      if (controller.signal.aborted) return;
      searchId = answer.search_id;
      setResult(answer);
      setError(null);
    } catch (failure) {
      if (controller.signal.aborted) return;
      setError((failure as Error).message);
    } finally {
      if (inFlight === controller) setLoading(false);
    }
  }

  createEffect(
    on([query, token], () => {
      searchId = undefined;
      setPage(0);
      clearTimeout(timer);
      timer = setTimeout(() => void run(), DEBOUNCE_MS);
    }),
  );
  onCleanup(() => {
    clearTimeout(timer);
    inFlight?.abort();
  });

  return {
    query,
    update: (change: Partial<SearchQuery>) => setQuery({ ...query(), ...change }),
    /** Another page of the same search session. */
    goTo(next: number) {
      clearTimeout(timer);
      setPage(next);
      void run();
    },
    result,
    loading,
    error,
  };
}

export type AgentSearch = ReturnType<typeof createAgentSearch>;
