import { z } from 'zod';
import { type Agent, defineAgent } from '../../../../lib/agent/index.ts';
import { ApiError } from '../../../../lib/http/api-error.ts';
import type { AgentRow } from '../agents/records.ts';
import { open } from '../agents/vault.ts';
import { failureText, guestOf } from './guest-loader.ts';
import { hostedAgentStub } from './hosted-agent.ts';
import { platformFetch, SUBMIT_PATH, submitUrl } from './platform-fetch.ts';

const OUTBOX_DLQ = 'rendezvous-hosting-outbox-dlq';

/**
 * A hosted agent as lib/agent sees it: the platform's identity for it (the seed opened from the vault),
 * its webhook at the submit path, the hosting Worker's outbox queue and replay ledger. lib/agent verifies
 * every envelope (signature, target, expiry, replay) and signs what the agent sends; the one catch-all
 * handler gives each verified message to the agent's code, which dispatches it by model and shape.
 */
export async function platformAgent(env: HostingEnv, row: AgentRow): Promise<Agent<HostingEnv>> {
  const seed = await open(env.HOSTING_SEED_KEY, row.sealed_seed);
  const agent = defineAgent<HostingEnv>({
    name: row.address,
    title: row.name,
    readme: row.readme ?? '',
    description: row.short_description ?? undefined,
    webhookPath: SUBMIT_PATH,
    settings: (bindings) => ({
      seed,
      webhookUrl: submitUrl(bindings),
      registryUrl: bindings.REGISTRY_URL,
      replayLedger: bindings.REPLAY_LEDGER,
      outbox: bindings.HOSTING_OUTBOX,
      allowPrivateUrls: bindings.ALLOW_PRIVATE_URLS === 'true',
      fetch: platformFetch(bindings),
      deadLetterQueue: OUTBOX_DLQ,
    }),
  });
  agent.onPayload(z.unknown(), async (ctx, sender, payload) => {
    const answer = await guestOf(env, row)
      .message({ sender, session: ctx.session, schemaDigest: ctx.envelope.schema_digest, payload })
      .catch((error: unknown) => {
        ctx.executionCtx.waitUntil(hostedAgentStub(env, row.address).log('erro', 'system', `the agent's code could not run: ${failureText(error)}`));
        return { ok: false, code: 'handler_failed', message: failureText(error) } as const;
      });
    if (!answer.ok) {
      // The sender's mistake: refused as lib/agent refuses it. A failed handler: 500, so the sender retries.
      if (answer.code === 'handler_failed') throw new Error(`hosted agent ${row.address}: ${answer.message}`);
      throw new ApiError({ status: 400, message: answer.message, type: 'invalid_envelope', code: answer.code });
    }
    if (answer.reply) await ctx.send(sender, answer.reply);
    return answer.result ?? undefined;
  });
  agent.onDeadLetter(async (_ctx, letter) => {
    await hostedAgentStub(env, row.address).log('erro', 'system', `message to ${letter.target} (session ${letter.session}) not delivered: ${letter.reason}`);
  });
  return agent;
}
