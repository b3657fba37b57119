import type { AgentManifest } from '../../../../schemas/chat.ts';
import type { ServedModel } from '../config/models.ts';
import { ProviderError } from './errors.ts';
import { offlineProvider } from './offline/provider.ts';
import { openAiCompatibleProvider } from './openai-compatible.ts';
import type { Provider } from './types.ts';
import { type AiRunner, workersAiProvider } from './workers-ai.ts';

/** Whether a model's provider is configured here (its binding or upstream URL exists). */
export function isAvailable(model: ServedModel, env: ChatEnv): boolean {
  if (model.provider === 'workers-ai') return Boolean(env.AI);
  if (model.provider === 'openai') return Boolean(model.base_url);
  return true;
}

/** The provider serving `model`, or a 422 when this deployment cannot serve it. */
export function selectProvider(model: ServedModel, env: ChatEnv, agents: () => AgentManifest[]): Provider {
  if (!isAvailable(model, env)) {
    throw new ProviderError(422, `model ${model.alias} is unavailable here: its ${model.provider} provider is not configured`, 'model_unavailable');
  }
  switch (model.provider) {
    case 'workers-ai':
      return workersAiProvider(model, env.AI as unknown as AiRunner);
    case 'openai': {
      const secrets = env as unknown as Record<string, unknown>;
      const apiKey = model.api_key_var ? secrets[model.api_key_var] : undefined;
      return openAiCompatibleProvider(model, {
        baseUrl: model.base_url!,
        apiKey: typeof apiKey === 'string' ? apiKey : undefined,
        timeoutMs: Number(env.UPSTREAM_TIMEOUT_MS) || 60_000,
      });
    }
    case 'offline':
      return offlineProvider({ tokenDelayMs: Number(env.OFFLINE_TOKEN_DELAY_MS) || 0, agents });
  }
}
