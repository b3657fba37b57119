/**
 * EDGAR full-text search (`efts.sec.gov/LATEST/search-index?q=…&forms=…`) over the offline dataset: the
 * filings listed in data/edgar/submissions, matched by company name or ticker (the dataset has no filing
 * texts), answered in EFTS's Elasticsearch shape. Used by scripts/dev/edgar-server.ts and the specialist's tests.
 */

/** What the search reads of a `submissions/CIK##########.json` document. */
export interface SubmissionsDocument {
  cik: string;
  name: string;
  tickers: string[];
  sic?: string;
  stateOfIncorporation?: string;
  filings: {
    recent: {
      accessionNumber: string[];
      filingDate: string[];
      reportDate: string[];
      form: string[];
      fileNumber?: string[];
      primaryDocument: string[];
      primaryDocDescription?: string[];
    };
  };
}

const STOPWORDS = new Set(['or', 'and', 'not', 'the', 'of', 'a', 'an', 'in', 'for', 'to', 'how', 'did', 'what', 'was', 'is']);

/** Quoted phrases and single words, lower case; OR/AND and filler words dropped. */
export function searchTerms(q: string): string[] {
  const phrases = [...q.matchAll(/"([^"]+)"/g)].map((m) => m[1]!.toLowerCase().trim());
  const words = q
    .replace(/"[^"]*"/g, ' ')
    .toLowerCase()
    .split(/[^a-z0-9.&-]+/)
    .filter((word) => word.length > 1 && !STOPWORDS.has(word));
  return [...phrases, ...words].filter(Boolean);
}

export function searchIndex(documents: SubmissionsDocument[], q: string, forms: string[] = []) {
  const terms = searchTerms(q);
  const wanted = new Set(forms.map((form) => form.trim().toUpperCase()).filter(Boolean));
  const hits = documents.flatMap((doc) => {
    const haystack = `${doc.name} ${doc.tickers.join(' ')}`.toLowerCase();
    if (!terms.some((term) => haystack.includes(term))) return [];
    const cik = doc.cik.padStart(10, '0');
    const recent = doc.filings.recent;
    return recent.accessionNumber.flatMap((adsh, i) => {
      const form = recent.form[i]!;
      if (wanted.size && !wanted.has(form)) return [];
      return [
        {
          _index: 'edgar_file',
          _id: `${adsh}:${recent.primaryDocument[i]}`,
          _score: 1,
          _source: {
            ciks: [cik],
            period_ending: recent.reportDate[i] || null,
            file_num: [recent.fileNumber?.[i] ?? ''],
            display_names: [`${doc.name}  (${doc.tickers.join(', ')})  (CIK ${cik})`],
            root_forms: [form],
            file_date: recent.filingDate[i],
            form,
            adsh,
            file_type: form,
            file_description: recent.primaryDocDescription?.[i] ?? form,
            sics: doc.sic ? [doc.sic] : [],
            inc_states: doc.stateOfIncorporation ? [doc.stateOfIncorporation] : [],
            items: [],
          },
        },
      ];
    });
  });
  hits.sort((a, b) => b._source.file_date!.localeCompare(a._source.file_date!));
  return {
    took: 1,
    timed_out: false,
    hits: { total: { value: hits.length, relation: 'eq' }, max_score: hits.length ? 1 : null, hits: hits.slice(0, 100) },
  };
}
