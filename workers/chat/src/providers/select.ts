import { envNumber } from '../../../../lib/config/env-number.ts';
import type { AgentManifest } from '../../../../schemas/chat.ts';
import type { ServedModel } from '../config/models.ts';
import { providerError } from './errors.ts';
import { offlineProvider } from './offline/provider.ts';
import { openAiCompatibleProvider } from './openai-compatible.ts';
import type { Provider } from './types.ts';
import { workersAiProvider } from './workers-ai.ts';

/** The secret `name` (a model's `api_key_var`, chosen by the operator, so not in the generated env type). */
function secretNamed(env: ChatEnv, name: string): string | undefined {
  const value: unknown = Object.hasOwn(env, name) ? Reflect.get(env, name) : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** Whether a model's provider is configured here (its binding or upstream URL exists). */
export function isAvailable(model: ServedModel, env: ChatEnv): boolean {
  if (model.provider === 'workers-ai') return Boolean(env.AI);
  if (model.provider === 'openai') return Boolean(model.base_url);
  return true;
}

/** The provider serving `model`, or a 422 when this deployment cannot serve it (isAvailable's conditions). */
export function selectProvider(model: ServedModel, env: ChatEnv, agents: () => AgentManifest[]): Provider {
  if (model.provider === 'workers-ai' && env.AI) return workersAiProvider(model, env.AI);
  if (model.provider === 'openai' && model.base_url) {
    return openAiCompatibleProvider(model, {
      baseUrl: model.base_url,
      apiKey: model.api_key_var ? secretNamed(env, model.api_key_var) : undefined,
      timeoutMs: envNumber(env.UPSTREAM_TIMEOUT_MS, 60_000),
    });
  }
  if (model.provider === 'offline') return offlineProvider({ tokenDelayMs: envNumber(env.OFFLINE_TOKEN_DELAY_MS, 0), agents });
  const message = `model ${model.alias} is unavailable here: its ${model.provider} provider is not configured`;
  throw providerError(422, message, 'model_unavailable');
}
