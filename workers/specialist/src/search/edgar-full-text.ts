import type { EdgarClient } from '../edgar/client.ts';
import type { SearchResult } from './search-result.ts';

const FORMS = ['10-K', '10-Q', '8-K'];

/** EDGAR full-text search: the newest filings that match, linked to their documents on sec.gov. */
export async function edgarFullTextSearch(edgar: EdgarClient, query: string, limit = 5): Promise<SearchResult[]> {
  const answer = await edgar.fullTextSearch(query, FORMS);
  return answer.hits.hits
    .map(({ _id, _source: source }) => {
      const [adsh = source.adsh ?? '', document = ''] = _id.split(':');
      const cik = String(Number(source.ciks[0] ?? '0'));
      const form = source.form ?? source.root_forms?.[0] ?? 'filing';
      const period = source.period_ending ? `, period ending ${source.period_ending}` : '';
      return {
        title: `${form} of ${(source.display_names[0] ?? `CIK ${cik}`).replace(/\s+/g, ' ')}${period}`,
        url: `https://www.sec.gov/Archives/edgar/data/${cik}/${adsh.replace(/-/g, '')}/${document}`,
        date: source.file_date ?? null,
        snippet: source.file_description ?? null,
      };
    })
    .sort((a, b) => (b.date ?? '').localeCompare(a.date ?? ''))
    .slice(0, limit);
}
