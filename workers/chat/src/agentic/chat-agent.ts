import { chatText, defineAgent } from '../../../../lib/agent/index.ts';
import { ApiError } from '../../../../lib/http/api-error.ts';
import type { ChatBindings } from '../env.ts';
import type { FileOutcome, SessionEvent } from './agent-session.ts';
import { agentSession } from './session-id.ts';

/** Flush left: the registry stores the README byte for byte. Written so that searches for a task do not find it. */
const README = `# Rendezvous chat

The chat completion endpoint (\`llm1-agentic\`) as an agent: it sends users' questions to the agents they pick or discovery finds, over AgentChatProtocol, and relays their answers.

## Interaction
- Agents: answers and acknowledgements arrive as signed chat messages at /agent/webhook, in the session of the question.
`;

/** Where the registry is: the service binding when bound (deployed and in tests), else REGISTRY_URL. */
const REGISTRY_ORIGIN = 'https://registry.internal';

/**
 * The fetch of the chat agent's outbound calls: registry calls (registration, the almanac) over the REGISTRY_API
 * service binding when there is one; webhooks of other agents over the network (lib/agent passes each through
 * the URL policy first).
 */
function agentFetch(env: ChatBindings): typeof fetch {
  return (input, init) => {
    const request = new Request(input, init);
    if (env.REGISTRY_API && new URL(request.url).origin === REGISTRY_ORIGIN) return env.REGISTRY_API.fetch(request);
    return fetch(request);
  };
}

/** The chat Worker's agent: identity from CHAT_AGENT_SEED, registered at CHAT_AGENT_WEBHOOK_URL with its own key. */
export const chatAgent = defineAgent<ChatBindings>({
  name: 'chat',
  title: 'Rendezvous chat',
  readme: README,
  settings: (env) => ({
    seed: env.CHAT_AGENT_SEED,
    webhookUrl: env.CHAT_AGENT_WEBHOOK_URL,
    registryUrl: env.REGISTRY_API ? REGISTRY_ORIGIN : env.REGISTRY_URL,
    registryToken: env.CHAT_AGENT_REGISTRY_KEY || undefined,
    allowPrivateUrls: env.ALLOW_PRIVATE_URLS === 'true',
    replayLedger: env.REPLAY_LEDGER,
    outbox: env.CHAT_AGENT_OUTBOX,
    deadLetterQueue: 'rendezvous-chat-outbox-dlq',
    fetch: agentFetch(env),
  }),
});

const refusal = (status: 403 | 404, message: string, code: string) => new ApiError({ status, message, type: 'invalid_envelope', code });

/** Files what an agent sent into its conversation; only the agent the conversation is with is heard. */
async function fileInto(
  env: ChatBindings,
  session: string,
  sender: string,
  kind: SessionEvent['kind'],
  acknowledged: string | null,
  text: string,
): Promise<void> {
  const outcome: FileOutcome = await agentSession(env, session).file(sender, kind, acknowledged, text);
  if (outcome === 'unknown_session') throw refusal(404, `session ${session} is not a conversation of this agent`, 'unknown_session');
  if (outcome === 'wrong_sender') throw refusal(403, `session ${session} is not a conversation with ${sender}`, 'wrong_sender');
}

// Answers: filed for the completion waiting on them (or for the session's next request); the runtime acknowledges them.
chatAgent.onChat(async (ctx, sender, message) => {
  await fileInto(ctx.env, ctx.session, sender, 'answered', null, chatText(message));
});

chatAgent.onChatAcknowledgement(async (ctx, sender, acknowledgement) => {
  await fileInto(ctx.env, ctx.session, sender, 'acknowledged', acknowledgement.acknowledged_msg_id, '');
});
