import type { AgentManifest, IntermediateStep } from '../../../../schemas/chat.ts';
import type { ServedModel } from '../config/models.ts';
import type { StepEvent } from './events.ts';
import { OFFLINE_LABEL } from '../providers/offline/label.ts';

/** What every response and chunk of one completion shares. */
export interface CompletionFrame {
  id: string;
  created: number;
  model: string;
  system_fingerprint: string;
  service_tier: string;
}

export interface CompletionContext {
  frame: CompletionFrame;
  metadata: Record<string, unknown>;
  executableData: AgentManifest[];
  intermediateSteps: IntermediateStep[];
}

export function completionContext(
  model: ServedModel,
  discovery: { manifests: AgentManifest[]; steps: IntermediateStep[] },
): CompletionContext {
  return {
    frame: {
      id: `chatcmpl-${crypto.randomUUID().replaceAll('-', '')}`,
      created: Math.floor(Date.now() / 1000),
      model: model.alias,
      system_fingerprint: `fp_${model.provider}_${model.model.replace(/[^a-zA-Z0-9.]+/g, '-')}`,
      service_tier: 'default',
    },
    metadata: {
      provider: model.provider,
      provider_model: model.model,
      ...(model.provider === 'offline' ? { engine: OFFLINE_LABEL, deterministic: true } : {}),
    },
    executableData: discovery.manifests,
    intermediateSteps: discovery.steps,
  };
}

/** A step joins the completion's steps; the agents it names replace the manifests considered. */
export function recordStep(context: CompletionContext, event: StepEvent): void {
  context.intermediateSteps.push(event.step);
  if (event.manifests) context.executableData = event.manifests;
}
