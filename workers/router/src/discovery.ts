import { z } from 'zod';
import { agentRecordSchema, type agentSearchRequestSchema } from '../../../schemas/search.ts';

/** Only the addresses of the search result matter here. */
const searchResultSchema = z.object({ agents: z.array(agentRecordSchema.pick({ address: true })) });

export class RegistryError extends Error {}

const RETRY_DELAY_MS = 250;

/**
 * Finds the specialist: the first agent the registry's search returns for SPECIALIST_QUERY, skipping the
 * router itself (it is registered too). Undefined when nothing is registered yet.
 */
export async function findSpecialist(env: RouterEnv, self: string): Promise<string | undefined> {
  const search = () =>
    fetch(new URL('/v1/search/agents', env.REGISTRY_URL), {
      method: 'POST',
      headers: { Authorization: `Bearer ${env.REGISTRY_API_KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ search_text: env.SPECIALIST_QUERY, sort: 'relevancy', direction: 'desc', limit: 5, source: 'router' } satisfies z.input<typeof agentSearchRequestSchema>),
    });
  let response: Response;
  try {
    response = await search();
    // A search changes nothing, so one that met a passing failure (a restarting registry) is asked again once.
    if (response.status >= 500) {
      await response.body?.cancel();
      await scheduler.wait(RETRY_DELAY_MS);
      response = await search();
    }
  } catch (error) {
    throw new RegistryError(`registry at ${env.REGISTRY_URL} is unreachable: ${(error as Error).message}`);
  }
  if (!response.ok) throw new RegistryError(`registry search answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  const result = searchResultSchema.safeParse(await response.json().catch(() => null));
  if (!result.success) throw new RegistryError('registry search answered with an unexpected body');
  return result.data.agents.find((agent) => agent.address !== self)?.address;
}
