import { z } from 'zod';
import { agentFunctionSchema, agentRecordSchema } from './search.ts';

/**
 * GET /v2/agents: the agents of the calling key's account. An operator's Worker (the router) uses it to tell
 * its own agents from other tenants' lookalikes, and to see which of them declare the payload it sends.
 */
const ownAgentSchema = z
  .object({
    address: z.string(),
    name: z.string(),
    status: agentRecordSchema.shape.status,
    /** What the README declares in `<payload_requirements>` and its function sections. */
    functions: z.array(agentFunctionSchema),
  })
  .meta({ title: 'OwnAgent' });

export const ownAgentsResponseSchema = z.object({ agents: z.array(ownAgentSchema) }).meta({ title: 'OwnAgents' });

export type OwnAgent = z.infer<typeof ownAgentSchema>;
export type OwnAgents = z.infer<typeof ownAgentsResponseSchema>;
