import type { AgentManifest, ChatCompletionChunk, IntermediateStep, Usage } from '../../../schemas/chat.ts';

/** One assistant reply as it streams in: its text, the model's thought kept apart, what discovery found. */
export interface AssistantTurn {
  role: 'assistant';
  content: string;
  thought: string;
  agents: AgentManifest[];
  steps: IntermediateStep[];
  finishReason: string | null;
  usage: Usage | null;
  model: string;
  /** Agents mode (`llm1-agentic`): the steps are the agent conversation, shown as they stream. */
  agentic: boolean;
  streaming: boolean;
  error: string | null;
}

interface UserTurn {
  role: 'user';
  content: string;
}

export type Turn = UserTurn | AssistantTurn;

export function emptyReply(model: string, agentic = false): AssistantTurn {
  return {
    role: 'assistant',
    content: '',
    thought: '',
    agents: [],
    steps: [],
    finishReason: null,
    usage: null,
    model,
    agentic,
    streaming: true,
    error: null,
  };
}

/**
 * Folds one stream chunk into the reply (`executable_data` replaces what came before: the chunk that has it
 * carries the whole list). The gateway sends a thought both as the spec's top-level `thought`
 * and as OpenAI-style `reasoning_content`; it is taken once.
 */
export function applyChunk(turn: AssistantTurn, chunk: ChatCompletionChunk): AssistantTurn {
  const choice = chunk.choices[0];
  const thought = chunk.thought ?? choice?.delta.reasoning_content ?? '';
  return {
    ...turn,
    content: turn.content + (choice?.delta.content ?? ''),
    thought: turn.thought + thought,
    agents: chunk.executable_data ?? turn.agents,
    // Steps come as they happen, a few per chunk: appended, never replaced.
    steps: chunk.intermediate_steps ? [...turn.steps, ...chunk.intermediate_steps] : turn.steps,
    finishReason: choice?.finish_reason ?? turn.finishReason,
    usage: chunk.usage ?? turn.usage,
    model: chunk.model || turn.model,
  };
}

/** The conversation as the API takes it: the service keeps no state, so every turn is sent again. */
export function toMessages(system: string, turns: Turn[]): { role: 'system' | 'user' | 'assistant'; content: string }[] {
  const history = turns.filter((turn) => turn.role === 'user' || !turn.error).map((turn) => ({ role: turn.role, content: turn.content }));
  return system.trim() ? [{ role: 'system', content: system.trim() }, ...history] : history;
}
