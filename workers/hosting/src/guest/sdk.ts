/**
 * `rendezvous/agent`: the agent API hosted code imports (bundled with zod by build-guest-sdk.mjs). The same
 * names as lib/agent: defineAgent, model, rawMessage, and zod's `z` (also importable as `zod`).
 */
export { z } from 'zod';
export { model, rawMessage, type Message, type Model } from '../../../../lib/agent/model.ts';
export type { AgentLogger, AgentStorage, HostedContext, HostedMessageContext } from './context.ts';
export { defineAgent, HostedAgentDefinition, type HostedAgentConfig } from './define-agent.ts';
export { hostedEntrypoint } from './entrypoint.ts';
export { guard } from './guard.ts';

import { meterBinaryMemory } from './memory-meter.ts';

// Before any of the agent's code runs (every module of it imports this SDK first): its binary memory is metered.
meterBinaryMemory();
