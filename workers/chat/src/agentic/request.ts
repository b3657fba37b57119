import type { AgentExecutionContext } from '../../../../lib/agent/index.ts';
import type { ChatCompletionRequest } from '../../../../schemas/chat.ts';
import type { ServedModel } from '../config/models.ts';
import type { ChatBindings } from '../env.ts';
import type { Provider, ProviderMessage } from '../providers/types.ts';

/** One agentic completion's inputs: what `agenticCompletion` (run.ts) and each of its parts read. */
export interface AgenticRequest {
  env: ChatBindings;
  executionCtx: AgentExecutionContext;
  keyId: string;
  token: string;
  request: ChatCompletionRequest;
  messages: ProviderMessage[];
  model: ServedModel;
  provider: Provider;
  /** The caller's `x-session-id`, when it continues a conversation. */
  callerSession: string | undefined;
  maxTokens: number;
  signal: AbortSignal;
}
