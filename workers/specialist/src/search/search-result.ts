/** One thing the search worker found, whichever provider found it. */
export interface SearchResult {
  title: string;
  url: string;
  date: string | null;
  snippet: string | null;
}
