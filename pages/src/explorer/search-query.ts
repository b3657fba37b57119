import {
  AGENT_CATEGORIES,
  AGENT_STATES,
  AGENT_TYPES,
  type SEARCH_DIRECTIONS,
  SEARCH_SORTS,
  type SearchFilters,
} from '../../../schemas/search.ts';
import type { AgentSearchInput } from '../api/registry.ts';

export { AGENT_CATEGORIES, AGENT_STATES, AGENT_TYPES, SEARCH_SORTS };

const PAGE_SIZE = 10;

/** What the user set in the explorer's controls. */
export interface SearchQuery {
  text: string;
  sort: (typeof SEARCH_SORTS)[number];
  direction: (typeof SEARCH_DIRECTIONS)[number];
  state: (typeof AGENT_STATES)[number][];
  agentType: (typeof AGENT_TYPES)[number][];
  category: (typeof AGENT_CATEGORIES)[number][];
  /** Comma-separated tag names. */
  tags: string;
  hasReadme: boolean;
  minInteractions: number | null;
}

export const INITIAL_QUERY: SearchQuery = {
  text: '',
  sort: 'relevancy',
  direction: 'desc',
  state: [],
  agentType: [],
  category: [],
  tags: '',
  hasReadme: false,
  minInteractions: null,
};

/** The registry request for one page of a query; empty filters are left out. */
export function toSearchRequest(query: SearchQuery, page: number, searchId: string | undefined): AgentSearchInput {
  const filters: SearchFilters = {};
  if (query.state.length) filters.state = query.state;
  if (query.agentType.length) filters.agent_type = query.agentType;
  if (query.category.length) filters.category = query.category;
  const tags = query.tags
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);
  if (tags.length) filters.tags = tags;
  if (query.hasReadme) filters.has_readme = true;
  if (query.minInteractions !== null && query.minInteractions > 0) filters.n_interactions = query.minInteractions;
  return {
    search_text: query.text.trim(),
    sort: query.sort,
    direction: query.direction,
    offset: page * PAGE_SIZE,
    limit: PAGE_SIZE,
    source: 'explorer',
    ...(Object.keys(filters).length ? { filters } : {}),
    ...(searchId ? { search_id: searchId } : {}),
  };
}
