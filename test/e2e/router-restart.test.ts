import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestStatusSchema } from '../../schemas/router-api.ts';
import { ask, waitForAnswer } from './helpers/router-client.ts';
import { startTempStack, type TempStack } from './helpers/temp-stack.ts';

describe('router killed and restarted between send and answer', () => {
  let temp: TempStack;

  beforeAll(async () => {
    temp = await startTempStack({ client: false });
  });
  afterAll(async () => {
    await temp?.dispose();
  });

  it('loses no answer: answers wait in the specialist’s delivery retries and the slots survive on disk', async () => {
    const router = temp.stack.urls.router;
    const ids = await Promise.all(Array.from({ length: 10 }, (_, index) => ask(router, `Question ${index}: Apple revenue?`)));
    // Wait until every request has reached the specialist, so that only the answers are in flight.
    let unanswered = 0;
    for (const id of ids) {
      for (;;) {
        const status = requestStatusSchema.parse(await (await fetch(`${router}/api/requests/${id}`)).json());
        if (status.delivered_at) {
          if (!status.answered_at) unanswered++;
          break;
        }
        await sleep(50);
      }
    }
    await temp.stack.stop('router');
    // Otherwise the test would not exercise answers arriving while the router is down.
    expect(unanswered).toBeGreaterThan(0);
    await sleep(3000);
    await temp.stack.start('router');

    const answers = await Promise.all(ids.map((id) => waitForAnswer(router, id)));
    expect(answers).toHaveLength(10);
    for (const answer of answers) expect(answer.analysis_result.analysis.length).toBeGreaterThan(0);
  });
});
