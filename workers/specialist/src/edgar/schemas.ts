import { z } from 'zod';

/**
 * The SEC EDGAR JSON documents the specialist reads, in their published shapes, trimmed to the fields it
 * uses (`.loose()` keeps the rest). Wire contracts with the SEC, so they live beside the only code that reads them.
 */

/** `company_tickers.json`: `{"0": {cik_str, ticker, title}, …}`. */
export const companyTickersSchema = z.record(
  z.string(),
  z.object({ cik_str: z.number().int(), ticker: z.string(), title: z.string() }).loose(),
);
export type CompanyTickers = z.infer<typeof companyTickersSchema>;

/** One XBRL fact as `api/xbrl/companyfacts` lists it: `fy`/`fp`/`form` describe the filing, `start`/`end` the period. */
const xbrlFactSchema = z
  .object({
    start: z.string().optional(),
    end: z.string(),
    val: z.number(),
    accn: z.string(),
    fy: z.number().int().nullable().optional(),
    fp: z.string().nullable().optional(),
    form: z.string(),
    filed: z.string(),
    frame: z.string().optional(),
  })
  .loose();
export type XbrlFact = z.infer<typeof xbrlFactSchema>;

const conceptSchema = z
  .object({
    label: z.string().nullable().optional(),
    description: z.string().nullable().optional(),
    units: z.record(z.string(), z.array(xbrlFactSchema)),
  })
  .loose();

/** `api/xbrl/companyfacts/CIK##########.json`. */
export const companyFactsSchema = z
  .object({
    cik: z.number().int(),
    entityName: z.string(),
    facts: z.record(z.string(), z.record(z.string(), conceptSchema)),
  })
  .loose();
export type CompanyFacts = z.infer<typeof companyFactsSchema>;

/** `submissions/CIK##########.json`: the company and its recent filings as parallel arrays. */
export const submissionsSchema = z
  .object({
    cik: z.string(),
    name: z.string(),
    tickers: z.array(z.string()).default([]),
    sicDescription: z.string().nullable().optional(),
    fiscalYearEnd: z.string().nullable().optional(),
    filings: z
      .object({
        recent: z
          .object({
            accessionNumber: z.array(z.string()),
            filingDate: z.array(z.string()),
            reportDate: z.array(z.string()),
            form: z.array(z.string()),
            primaryDocument: z.array(z.string()),
          })
          .loose(),
      })
      .loose(),
  })
  .loose();
export type Submissions = z.infer<typeof submissionsSchema>;

/** EDGAR full-text search (`efts.sec.gov/LATEST/search-index?q=…`): an Elasticsearch answer. */
export const fullTextSearchSchema = z
  .object({
    hits: z
      .object({
        total: z.object({ value: z.number().int() }).loose().optional(),
        hits: z.array(
          z
            .object({
              _id: z.string(),
              _source: z
                .object({
                  ciks: z.array(z.string()).default([]),
                  display_names: z.array(z.string()).default([]),
                  form: z.string().optional(),
                  root_forms: z.array(z.string()).optional(),
                  file_date: z.string().optional(),
                  period_ending: z.string().nullable().optional(),
                  adsh: z.string().optional(),
                  file_description: z.string().nullable().optional(),
                })
                .loose(),
            })
            .loose(),
        ),
      })
      .loose(),
  })
  .loose();
export type FullTextSearch = z.infer<typeof fullTextSearchSchema>;
