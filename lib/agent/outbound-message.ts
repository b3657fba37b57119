import { z } from 'zod';

/** A message on the outbox queue: already signed, so every delivery attempt sends the same envelope. */
export const outboundMessageSchema = z.object({
  agent: z.string(),
  target: z.string(),
  session: z.string(),
  envelope: z.string(),
});
export type OutboundMessage = z.infer<typeof outboundMessageSchema>;
