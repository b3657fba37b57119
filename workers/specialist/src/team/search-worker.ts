import type { AnalysisItem } from '../../../../schemas/messages.ts';
import type { CompanyRef } from '../analysis/company-directory.ts';
import type { EdgarClient } from '../edgar/client.ts';
import { edgarFullTextSearch } from '../search/edgar-full-text.ts';
import type { SearchResult } from '../search/search-result.ts';
import { tavilySearch } from '../search/tavily.ts';

export const SEARCH_WORKER = 'Search Worker';

interface SearchDeps {
  edgar: EdgarClient;
  tavilyApiKey: string | null;
  fetch: typeof fetch;
}

interface SearchReport {
  provider: 'Tavily web search' | 'EDGAR full-text search';
  query: string;
  results: SearchResult[];
  /** Why a provider failed (the search worker carries on without it). */
  problems: string[];
}

/**
 * Current information about the companies asked about: the web (Tavily) when a key is configured, else
 * (or when Tavily fails) the newest filings by EDGAR full-text search. Never fails the analysis.
 */
export async function searchCurrentInformation(deps: SearchDeps, question: string, companies: CompanyRef[]): Promise<SearchReport> {
  const problems: string[] = [];
  if (deps.tavilyApiKey) {
    const query = companies.length ? `${companies.map((c) => c.title).join(' vs ')} latest financial results` : question;
    try {
      return { provider: 'Tavily web search', query, results: await tavilySearch(deps.tavilyApiKey, query, deps.fetch), problems };
    } catch (error) {
      // The sender sees that the search failed, not why: fetch errors name hosts and DNS failures.
      console.error('specialist: Tavily web search failed', error);
      problems.push('Tavily web search failed; EDGAR full-text search used instead');
    }
  }
  const query = companies.length ? companies.map((c) => `"${c.title}"`).join(' OR ') : question;
  try {
    return { provider: 'EDGAR full-text search', query, results: await edgarFullTextSearch(deps.edgar, query), problems };
  } catch (error) {
    console.error('specialist: EDGAR full-text search failed', error);
    problems.push('EDGAR full-text search failed');
    return { provider: 'EDGAR full-text search', query, results: [], problems };
  }
}

export function searchItem(report: SearchReport): AnalysisItem {
  const lines = [
    `${report.provider} for ${report.query}: ${report.results.length ? `${report.results.length} most recent result(s).` : 'nothing found.'}`,
  ];
  for (const result of report.results) {
    lines.push(`- ${result.date ? `${result.date}: ` : ''}${result.title} (${result.url})${result.snippet ? `: ${result.snippet}` : ''}`);
  }
  lines.push(...report.problems.map((problem) => `Note: ${problem}.`));
  return { role: 'search', name: SEARCH_WORKER, content: lines.join('\n') };
}
