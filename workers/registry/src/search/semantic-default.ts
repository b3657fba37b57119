import type { AgentSearchRequest } from '../../../../schemas/search.ts';

/**
 * Whether a search fuses semantic candidates with the lexical ones. Hybrid is the default: it ranks better on
 * both judged sets, held-out included (docs/decisions/0130); `semantic_search: false` asks for lexical only.
 */
export function semanticRequested(request: Pick<AgentSearchRequest, 'semantic_search'>): boolean {
  return request.semantic_search ?? true;
}
