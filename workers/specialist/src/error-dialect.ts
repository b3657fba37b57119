import { type Dialect, platformDialect, speaks } from '../../../lib/http/errors.ts';

/** The spec's error body of the specialist (§7). */
interface SpecialistError {
  status: 'error';
  message: string;
}

/**
 * Spec §7, on the specialist's POST /webhook (`speaksSpec`): a refused question is 400 and any exception
 * while handling 500, both `{status:'error', message}`. The agent runtime's refusals of an envelope (type
 * `invalid_envelope`: bad signature, replay, …) keep the platform's shape, whose `code` a sender's runtime
 * reads (lib/agent/delivery.ts: `replayed`).
 */
const specialistDialect: Dialect = (error) => {
  if (error.type === 'invalid_envelope') return platformDialect(error);
  const body: SpecialistError = { status: 'error', message: error.message };
  return body;
};

export const speaksSpec = speaks(specialistDialect);
