import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { analysisResultMessageSchema, type AnalysisItem } from '../../schemas/messages.ts';
import { requestEnvelope, send, SPECIALIST } from './helpers/envelopes.ts';
import { installFakeNetwork, ROUTER, type FakeNetwork } from './helpers/fake-network.ts';

let network: FakeNetwork;
beforeEach(() => {
  network = installFakeNetwork();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** Asks the specialist through its webhook and returns the analysis it sends back in the same session. */
async function ask(question: string): Promise<AnalysisItem[]> {
  const envelope = requestEnvelope({ request: question });
  const response = await send(envelope);
  expect(response.status).toBe(200);
  await vi.waitFor(() => expect(network.delivered.some((d) => d.envelope.session === envelope.session)).toBe(true), { timeout: 15_000 });
  const reply = network.delivered.find((d) => d.envelope.session === envelope.session)!;
  expect(reply.envelope.sender).toBe(SPECIALIST.address);
  expect(reply.envelope.target).toBe(ROUTER.address);
  return analysisResultMessageSchema.parse(reply.payload).analysis_result.analysis;
}

describe('the analysis sent back to the router', () => {
  it('answers the demo question with Apple’s figures, in the request’s session, one item per worker message', async () => {
    const items = await ask("How did Apple's revenue and net margin change over the last three fiscal years?");
    console.log(items.map((i) => `--- ${i.role} / ${i.name}\n${i.content}`).join('\n'));
  });
});
