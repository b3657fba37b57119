import { z } from 'zod';
import { type Agent, defineAgent } from '../../../../lib/agent/index.ts';
import { ApiError } from '../../../../lib/http/api-error.ts';
import type { AgentRow } from '../agents/records.ts';
import type { GuestAnswer, IncomingMessage } from '../guest/protocol.ts';
import { open } from '../agents/vault.ts';
import { failureText, guestOf } from './guest-loader.ts';
import { hostedAgentStub } from './hosted-agent.ts';
import { platformFetch, SUBMIT_PATH, submitUrl } from './platform-fetch.ts';
import { watched } from './watchdog.ts';

/** One message to the agent's code, its answer as the protocol states it (RPC's types lose the unknown payload's branch). */
async function askGuest(env: HostingEnv, row: AgentRow, message: IncomingMessage): Promise<GuestAnswer> {
  return await watched(env, row.address, 'message', () => guestOf(env, row).message(message));
}

const OUTBOX_DLQ = 'rendezvous-hosting-outbox-dlq';

/**
 * A hosted agent as lib/agent sees it: the platform's identity for it (the seed opened from the vault),
 * its webhook at the submit path, the hosting Worker's outbox queue and replay ledger. lib/agent verifies
 * every envelope (signature, target, expiry, replay) and signs what the agent sends; the one catch-all
 * handler gives each verified message to the agent's code, which dispatches it by model and shape.
 */
export function platformAgent(env: HostingEnv, row: AgentRow): Promise<Agent<HostingEnv>> {
  const key = [row.address, row.code_digest, row.name, row.readme, row.short_description].join('\u0000');
  let agent = built.get(key);
  if (!agent) {
    // A failed build (a seed that does not open) is not kept: the next message tries again.
    agent = buildPlatformAgent(env, row).catch((error: unknown) => {
      built.delete(key);
      throw error;
    });
    if (built.size >= BUILT_MAX) built.delete(built.keys().next().value!);
    built.set(key, agent);
  }
  return agent;
}

/**
 * The reply a handler left, sent once it has run. One that cannot be queued at all (a TypeError: too large) is
 * logged for the agent's owner and the message stays handled: the sender's retry would run the handler again and
 * fail the same way. Any other failure is logged and answered 500, so that the sender sends again.
 */
async function sendReply(env: HostingEnv, address: string, sender: string, send: () => Promise<void>): Promise<void> {
  try {
    await send();
  } catch (error) {
    await hostedAgentStub(env, address).log('erro', 'system', `the reply to ${sender} was not sent: ${failureText(error)}`);
    if (!(error instanceof TypeError)) throw error;
  }
}

/**
 * An isolate keeps the agents it built (opening the seed, declaring the app) for the rows they were built
 * from: a message to a warm agent costs one D1 lookup before verification. A new digest or name builds anew.
 */
const built = new Map<string, Promise<Agent<HostingEnv>>>();
const BUILT_MAX = 500;

async function buildPlatformAgent(env: HostingEnv, row: AgentRow): Promise<Agent<HostingEnv>> {
  const seed = await open(env, row.sealed_seed);
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
    const answer = await askGuest(env, row, { sender, session: ctx.session, schemaDigest: ctx.envelope.schema_digest, payload }).catch(
      (error: unknown): GuestAnswer => {
        ctx.executionCtx.waitUntil(
          hostedAgentStub(env, row.address).log('erro', 'system', `the agent's code could not run: ${failureText(error)}`),
        );
        return { ok: false, code: 'handler_failed', message: failureText(error) };
      },
    );
    if (!answer.ok) {
      // The sender's mistake: refused as lib/agent refuses it. A failed handler: 500, so the sender retries.
      if (answer.code === 'handler_failed') throw new Error(`hosted agent ${row.address}: ${answer.message}`);
      throw new ApiError({ status: 400, message: answer.message, type: 'invalid_envelope', code: answer.code });
    }
    if (answer.reply) await sendReply(env, row.address, sender, () => ctx.send(sender, answer.reply!));
    // Nothing to answer is `{}`, as Agentverse's submit and a uagents agent's own server answer.
    return answer.result ?? {};
  });
  agent.onDeadLetter(async (_ctx, letter) => {
    await hostedAgentStub(env, row.address).log(
      'erro',
      'system',
      `message to ${letter.target} (session ${letter.session}) not delivered: ${letter.reason}`,
    );
  });
  return agent;
}
