import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AlmanacRecord, almanacRecordSchema } from '../../schemas/registry.ts';
import type { ServiceName } from '../../scripts/stack/ports.ts';
import { createTempStack, type TempStack } from './helpers/temp-stack.ts';

/**
 * Our agents sign themselves inactive when they stop, as uAgents' agents do: the almanac shows `inactive` right
 * after the stop (no liveness probe waited for), and an agent started again is back before the stack calls it ready.
 */
describe('the stack’s agents sign themselves inactive when they stop', () => {
  let temp: TempStack;

  beforeAll(async () => {
    temp = await createTempStack({ client: false });
    for (const name of ['registry', 'chat', 'edgar', 'specialist', 'router'] as const) await temp.stack.start(name);
  }, 300_000);
  afterAll(async () => {
    await temp?.dispose();
  });

  const almanac = async (address: string): Promise<AlmanacRecord> =>
    almanacRecordSchema.parse(await (await fetch(`${temp.stack.urls.registry}/v1/almanac/agents/${address}`)).json());

  it('router, specialist and chat agent: inactive as soon as each is stopped; the router back when started again', async () => {
    const agents: [ServiceName, string][] = [
      ['router', temp.stack.routerAddress],
      ['specialist', temp.stack.specialistAddress],
      ['chat', temp.stack.chatAgentAddress],
    ];
    for (const [name, address] of agents) {
      expect((await almanac(address)).status, name).not.toBe('inactive');
      await temp.stack.stop(name);
      const record = await almanac(address);
      expect(record.status, name).toBe('inactive');
      // Still resolvable: a sender's retries reach it once it is back (at-least-once delivery holds).
      expect(record.endpoints.length, name).toBeGreaterThan(0);
    }
    await temp.stack.start('router');
    expect((await almanac(temp.stack.routerAddress)).status).not.toBe('inactive');
  }, 180_000);
});
