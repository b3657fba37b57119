import { z } from 'zod';

/** Router → specialist. The key `request` is shared by router, specialist and the specialist's README. */
export const requestMessageSchema = z.object({ request: z.string() });

/** One worker's contribution: `role` is its message type (or `message`), `name` the worker. */
export const analysisItemSchema = z
  .object({ role: z.string(), name: z.string().nullable(), content: z.string() })
  .meta({ title: 'AnalysisItem' });

/** Specialist → router. */
export const analysisResultMessageSchema = z.object({
  analysis_result: z.object({ analysis: z.array(analysisItemSchema) }).meta({ title: 'AnalysisResult' }),
});

/** Router → client while no answer is stored. */
export const waitingSchema = z.object({ status: z.literal('waiting') });

export type AnalysisItem = z.infer<typeof analysisItemSchema>;
export type AnalysisResultMessage = z.infer<typeof analysisResultMessageSchema>;

/** Published digests of the uAgents AgentChatProtocol, which the Python `fetchai` SDK puts on every message. */
export const CHAT_PROTOCOL = {
  schemaDigest: 'model:2601825997203ee07dbb9ff6e7c71ae7bdaf6a7c8b817361f2f88f4b29c68d0c',
  protocolDigest: 'proto:30a801ed3a83f9a0ff0a9f1e6fe958cb91da1fc2218b153df7b6cbf87bd33d62',
} as const;
