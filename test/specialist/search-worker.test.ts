import { env } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CompanyDirectory } from '../../workers/specialist/src/analysis/company-directory.ts';
import { teamFromEnv } from '../../workers/specialist/src/config.ts';
import { searchCurrentInformation, searchItem } from '../../workers/specialist/src/team/search-worker.ts';
import { installFakeNetwork, type FakeNetwork } from './helpers/fake-network.ts';

let network: FakeNetwork;
beforeEach(() => {
  network = installFakeNetwork();
});
afterEach(() => {
  vi.restoreAllMocks();
});

async function deps(tavilyApiKey: string | null) {
  const team = teamFromEnv(env);
  const nvidia = new CompanyDirectory(await team.edgar.tickers()).ticker('NVDA')!;
  return { deps: { edgar: team.edgar, tavilyApiKey, fetch: team.fetch }, nvidia };
}

describe('the search worker', () => {
  it('searches the web with Tavily when TAVILY_API_KEY is configured', async () => {
    network.tavily = () =>
      Response.json({
        results: [{ title: 'NVIDIA results', url: 'https://news.example/nvda', content: 'Record revenue', published_date: '2025-02-26' }],
      });
    const { deps: d, nvidia } = await deps('tvly-test');
    const report = await searchCurrentInformation(d, 'NVIDIA revenue', [nvidia]);
    expect(report).toMatchObject({
      provider: 'Tavily web search',
      results: [{ title: 'NVIDIA results', url: 'https://news.example/nvda', date: '2025-02-26', snippet: 'Record revenue' }],
    });
    expect(network.tavilyCalls).toEqual([{ query: 'NVIDIA CORP latest financial results', authorization: 'Bearer tvly-test' }]);
  });

  it('falls back to EDGAR full-text search when Tavily fails, and says so', async () => {
    network.tavily = () => new Response('quota exceeded', { status: 432 });
    const { deps: d, nvidia } = await deps('tvly-test');
    const report = await searchCurrentInformation(d, 'NVIDIA revenue', [nvidia]);
    expect(report.provider).toBe('EDGAR full-text search');
    expect(report.results[0]).toMatchObject({
      title: '10-K of NVIDIA CORP (NVDA) (CIK 0001045810), period ending 2025-01-26',
      date: '2025-02-26',
    });
    expect(searchItem(report).content).toContain('Note: Tavily web search failed; EDGAR full-text search used instead.');
  });

  it('lists the newest filings first, linked to their documents on sec.gov', async () => {
    const { deps: d, nvidia } = await deps(null);
    const report = await searchCurrentInformation(d, 'NVIDIA revenue', [nvidia]);
    expect(network.tavilyCalls).toHaveLength(0);
    expect(report.query).toBe('"NVIDIA CORP"');
    expect(report.results.map((r) => r.date)).toEqual(['2025-02-26', '2024-02-21', '2023-02-24', '2022-03-18', '2021-02-26']);
    expect(report.results[0]!.url).toBe('https://www.sec.gov/Archives/edgar/data/1045810/000104581025000023/nvda-20250126.htm');
  });

  it('never fails the analysis: an EDGAR outage becomes a note', async () => {
    network.edgarFailures.push({ path: /search-index/, status: 500 });
    const { deps: d, nvidia } = await deps(null);
    const report = await searchCurrentInformation(d, `NVIDIA ${crypto.randomUUID()}`, []);
    expect(report.results).toEqual([]);
    expect(report.problems[0]).toContain('EDGAR full-text search failed');
    expect(nvidia.ticker).toBe('NVDA');
  });
});
