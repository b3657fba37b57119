import { z } from 'zod';

/** The platform's error body (lib/http/errors.ts writes it): OpenAI's shape, used by every Worker. */
export const errorBodySchema = z
  .object({
    error: z.object({ message: z.string(), type: z.string(), param: z.string().nullable(), code: z.string().nullable() }),
  })
  .meta({ title: 'Error' });
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Body of every Worker's `GET /health` (lib/http/health.ts); Workers may add fields. */
export const healthSchema = z
  .object({ status: z.literal('ok'), name: z.string(), version: z.string() })
  .loose()
  .meta({ title: 'Health' });
