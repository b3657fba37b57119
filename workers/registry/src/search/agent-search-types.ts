import type { AgentSearchRequest } from '../../../../schemas/search.ts';
import type { AgentRecordRow } from '../agents/row.ts';
import type { SearchBounds } from './search-bounds.ts';
import type { SqlParams } from './sql-params.ts';
import type { SqlRunner } from './sql-runner.ts';

/** The types agent search's modules share (agent-search.ts runs a search, agent-text-sql.ts writes its SQL). */

/** How a search was answered; also the `x-search-mode` response header. */
export type SearchMode = 'browse' | 'lexical' | 'phrase' | 'hybrid' | 'lexical-fallback';

/** A page row: the agent record's columns, its rowid, score and click count (and the total, when the page carries it). */
export interface AgentHit extends AgentRecordRow {
  rid: number;
  score: number;
  clicks: number;
  /** 1 for a narrowed search's preferred tier, which comes before every other match (agent-text-sql.ts); 0 otherwise. */
  tier?: number;
  /** On the first page statement of a search that may be narrowed: 1 when it was (agent-text-sql.ts, `sequence`). */
  narrowed?: number;
  total?: number;
}

export interface AgentSearchResult {
  rows: AgentHit[];
  total: number;
  /** More than `total` agents match: counting them exactly would cost in proportion to the registry. */
  totalIsEstimate: boolean;
  mode: SearchMode;
}

export interface AgentSearchInput {
  request: AgentSearchRequest;
  searchId: string;
  queryKey: string;
  /** The request's start: the click cut-off of a session not stored yet. */
  startedAt: string;
  /**
   * SQL that must hold for the first batch's costly statements to do any work (the caller's key, checked in
   * that batch: BatchedKeyCheck). Later batches run only once the key was accepted.
   */
  gate?: (params: SqlParams) => string;
  /**
   * The client's page size when `request.limit` is not it (sharded: each shard is asked for offset + limit rows): a
   * narrowed search uses its preferred tier only when the tier fills a page of this size (agent-text-sql.ts).
   */
  pageLimit?: number;
  /** The Worker's search bounds (search-bounds.ts); the defaults when absent. */
  bounds?: SearchBounds;
  /**
   * Where query expansion reads the vocabulary when it is not the searched database's own: the registry's
   * whole vocabulary over sharded agents (shards/merged-vocabulary.ts). The search is then not speculative.
   */
  vocabulary?: SqlRunner;
}
