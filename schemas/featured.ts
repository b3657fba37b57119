import { z } from 'zod';
import { agentAddressSchema } from './registry.ts';

/**
 * Featured agents: the deployment's operator (admin token) picks agents to feature. Featured agents come
 * first when browsing by relevancy and get a small lift in text relevancy (search/ranking.ts); the agent
 * record says `featured`.
 */
export const featuredAgentSchema = z
  .object({
    address: agentAddressSchema,
    name: z.string(),
    featured: z.boolean(),
  })
  .meta({ title: 'FeaturedAgent' });
export type FeaturedAgent = z.infer<typeof featuredAgentSchema>;

export const featuredAgentListSchema = z.object({ agents: z.array(featuredAgentSchema) }).meta({ title: 'FeaturedAgentList' });
export type FeaturedAgentList = z.infer<typeof featuredAgentListSchema>;
