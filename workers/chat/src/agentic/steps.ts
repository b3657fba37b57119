import type { AgentManifest, IntermediateStep, StepAgent } from '../../../../schemas/chat.ts';
import type { StepEvent } from '../completion/events.ts';

/** A step as written here: everything but its time, which `stepEvent` stamps. */
type UnstampedStep = IntermediateStep extends infer Step ? (Step extends IntermediateStep ? Omit<Step, 'at'> : never) : never;

/** A step of the talk with an agent, stamped now; `manifests` when it changes the agents considered. */
export function stepEvent(fields: UnstampedStep, manifests?: AgentManifest[]): StepEvent {
  const step: IntermediateStep = { ...fields, at: new Date().toISOString() };
  return manifests ? { type: 'step', step, manifests } : { type: 'step', step };
}

export const named = (agent: StepAgent) => (agent.handle ? `${agent.name} (@${agent.handle})` : agent.name);
