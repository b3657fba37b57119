import { Hono } from 'hono';
import { ApiError } from '../../../../lib/http/api-error.ts';
import type { ModelList } from '../../../../schemas/chat.ts';
import type { ChatApp } from '../auth/require-key.ts';
import { readModelMap, type ServedModel } from '../config/models.ts';
import { isAvailable } from '../providers/select.ts';
import { currentLimitHeaders, limitedError } from './respond.ts';

/** Models are configuration, not records: a fixed creation time keeps the list stable. */
const CREATED = 1_767_225_600;

function describe(model: ServedModel, env: ChatEnv): ModelList['data'][number] {
  return {
    id: model.alias,
    object: 'model',
    created: CREATED,
    owned_by: 'rendezvous',
    provider: model.provider,
    context_window: model.context_window,
    available: isAvailable(model, env),
  };
}

/** GET /v1/models and /v1/models/{id}: the aliases this deployment serves. */
export const models = new Hono<ChatApp>()
  .get('/models', async (c) => {
    const list: ModelList = { object: 'list', data: [...readModelMap(c.env.MODEL_MAP).values()].map((m) => describe(m, c.env)) };
    return c.json(list, 200, await currentLimitHeaders(c));
  })
  .get('/models/:id', async (c) => {
    const model = readModelMap(c.env.MODEL_MAP).get(c.req.param('id'));
    if (!model)
      throw await limitedError(
        c,
        new ApiError({
          status: 404,
          message: `model ${c.req.param('id')} does not exist`,
          param: 'model',
          code: 'model_not_found',
        }),
      );
    return c.json(describe(model, c.env), 200, await currentLimitHeaders(c));
  });
