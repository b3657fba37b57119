/// <reference types="vite/client" />
import { searchIndex, type SubmissionsDocument } from '../../../scripts/dev/edgar-search-index.ts';

/**
 * The shipped offline EDGAR dataset (data/edgar), by URL path as data.sec.gov serves it. The tests feed
 * the specialist exactly these files: the dataset is the test data.
 */
const files = import.meta.glob('../../../data/edgar/**/*.json', { query: '?raw', import: 'default', eager: true }) as Record<
  string,
  string
>;

export const EDGAR_FILES: ReadonlyMap<string, string> = new Map(
  Object.entries(files).map(([path, text]) => [path.replace('../../../data/edgar', ''), text]),
);

export function edgarJson<T = unknown>(path: string): T {
  const text = EDGAR_FILES.get(path);
  if (text === undefined) throw new Error(`no ${path} in data/edgar`);
  return JSON.parse(text) as T;
}

const submissions = [...EDGAR_FILES]
  .filter(([path]) => path.startsWith('/submissions/'))
  .map(([, text]) => JSON.parse(text) as SubmissionsDocument);

/** EDGAR full-text search over the dataset, as scripts/dev/edgar-server.ts answers it. */
export const fullTextSearch = (q: string, forms: string[]) => searchIndex(submissions, q, forms);
