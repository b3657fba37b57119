import type { AgentManifest, Tool, ToolChoice } from '../../../../../schemas/chat.ts';
import type { ProviderMessage } from '../types.ts';
import { OFFLINE_LABEL } from './label.ts';
import { EXTRACTORS, extract, summarise, words } from './text.ts';
import { matchTool } from './tool-matcher.ts';

export interface OfflinePlan {
  /** Why this reply: the rule that fired, shown as the thought. */
  thought: string;
  content: string;
  toolCall: { name: string; arguments: string } | null;
}

interface OfflineInput {
  messages: ProviderMessage[];
  tools?: Tool[];
  toolChoice?: ToolChoice;
  agents: AgentManifest[];
}

const CAPABILITIES =
  'I can: echo text ("echo: …"), summarise text ("summarise: …", or text given earlier in the conversation), ' +
  `extract ${Object.keys(EXTRACTORS).join('/')} ("extract emails: …"), call a tool you pass when the message clearly asks for it, ` +
  'and list the agents found by agent discovery.';

/**
 * What an instruction is about: the user's text after its colon, however short ("Extract tickers: NVDA and AAPL");
 * without a colon, the text after the instruction when it is long enough to be one, else what the user said
 * earlier ("summarise the text above"). Never the system prompt: that is how to answer, not what about.
 */
function subject(message: string, instruction: RegExp, earlier: string): string {
  const after = message.replace(instruction, '');
  const rest = after.replace(/^[\s:,-]+/, '').trim();
  if (/^\s*:/.test(after) && rest) return rest;
  return rest.length > 40 || !earlier ? rest : earlier;
}

function describeAgents(agents: AgentManifest[]): string {
  return agents
    .map((agent) => {
      const accepts = agent.accepts.length
        ? ` Accepts: ${agent.accepts.map((a) => `\`${a.parameter}\` (${a.description})`).join(', ')}.`
        : '';
      return `- ${agent.name} (${agent.address}, ${agent.status}): ${agent.description || 'no description'}.${accepts}`;
    })
    .join('\n');
}

/** The message the reply answers: the last that is not a system message (the last message if all are). */
export function lastTurn(messages: ProviderMessage[]): ProviderMessage {
  return messages.findLast((m) => m.role !== 'system') ?? messages.at(-1)!;
}

/**
 * Chooses the reply by fixed rules over the last message of the conversation (a system message is instructions,
 * so the last other one); the same input always gives the same reply.
 */
export function planReply(input: OfflineInput): OfflinePlan {
  const last = lastTurn(input.messages);
  const reply = (thought: string, text: string): OfflinePlan => ({ thought, content: `${OFFLINE_LABEL}\n${text}`, toolCall: null });

  if (last.role === 'tool') {
    const call = input.messages
      .flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : []))
      .find((c) => c.id === last.tool_call_id);
    return reply(
      'Rule: report a tool result. The last message is a tool result, so it is relayed as given.',
      `Tool ${call?.function.name ?? last.tool_call_id} returned:\n${last.content}`,
    );
  }

  const message = last.content;
  const earlier = input.messages
    .slice(0, input.messages.lastIndexOf(last))
    .filter((m) => m.role === 'user')
    .map((m) => m.content)
    .join('\n')
    .trim();

  const tool = input.tools?.length ? matchTool(input.tools, input.toolChoice, message) : null;
  if (tool) {
    const args = JSON.stringify(tool.arguments);
    return {
      thought: `Rule: call a tool. ${tool.reason}; arguments filled from the message: ${args}.`,
      content: `${OFFLINE_LABEL}\nCalling ${tool.tool.function.name}.`,
      toolCall: { name: tool.tool.function.name, arguments: args },
    };
  }

  const echo = /^\s*(?:please\s+)?(?:echo|repeat)(?:\s+back)?\b[\s:,-]*/i;
  if (echo.test(message))
    return reply('Rule: echo. The message starts with "echo"/"repeat"; the rest is returned unchanged.', message.replace(echo, ''));

  const summariseRule = /^\s*(?:please\s+)?(?:summari[sz]e|tl;?dr|give (?:me )?a summary(?: of)?)\b/i;
  if (summariseRule.test(message)) {
    const text = subject(message, summariseRule, earlier);
    if (!text)
      return reply(
        'Rule: summarise, but there is no text to summarise.',
        'There is no text to summarise: put it after "summarise:" or in an earlier message.',
      );
    const { summary, kept, total } = summarise(text);
    return reply(`Rule: summarise. ${total} sentence(s) scored by how often their words recur; the best ${kept} kept in order.`, summary);
  }

  const extractRule =
    /^\s*(?:please\s+)?(?:extract|list|find)\s+(?:all\s+)?(?:the\s+)?(emails?|urls?|links?|numbers?|dates?|tickers?|addresses)\b/i;
  const kindWord = extractRule.exec(message)?.[1]?.toLowerCase();
  if (kindWord) {
    const kind = kindWord.startsWith('link') ? 'urls' : kindWord.endsWith('s') ? kindWord : `${kindWord}s`;
    const found = extract(kind, subject(message, extractRule, earlier));
    return reply(
      `Rule: extract ${kind} with a fixed pattern; ${found.length} found.`,
      found.length ? found.map((item) => `- ${item}`).join('\n') : `No ${kind} found.`,
    );
  }

  if (input.agents.length) {
    return reply(
      `Rule: list discovered agents. Agent discovery found ${input.agents.length} agent(s) for this request; their manifests are listed.`,
      `Agents in the registry that fit "${message.trim()}":\n${describeAgents(input.agents)}\nSend one of them a message with the fields it accepts.`,
    );
  }

  return reply(
    'Rule: no instruction recognised, so the engine describes what it can do.',
    `Your message has ${words(message).length} word(s). I do not understand free text. ${CAPABILITIES}`,
  );
}
