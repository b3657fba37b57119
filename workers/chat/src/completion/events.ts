import type { AgentManifest, IntermediateStep } from '../../../../schemas/chat.ts';
import type { ProviderEvent } from '../providers/types.ts';

/** A step of the work behind the answer (llm1-agentic), shown as it happens; `manifests`: the agents considered so far. */
export interface StepEvent {
  type: 'step';
  step: IntermediateStep;
  manifests?: AgentManifest[];
}

/** A model call made for the completion besides its answer (llm1-agentic's choice of agent): its tokens count in `usage`. */
interface SideCallEvent {
  type: 'side_call';
  promptTokens: number;
  completionTokens: number;
}

/** What a completion is made of: the provider's events, and the steps and side calls of an agentic completion. */
export type CompletionEvent = ProviderEvent | StepEvent | SideCallEvent;
