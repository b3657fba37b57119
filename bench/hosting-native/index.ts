import { defineAgent, model, type OutboundMessage, ReplayLedger, StaticResolver } from '../../lib/agent/index.ts';
import { PING, PONG } from './echo-model.ts';

export { ReplayLedger };

interface NativeEnv {
  SEED: string;
  REPLAY_LEDGER: DurableObjectNamespace<ReplayLedger>;
  OUTBOX: Queue<OutboundMessage>;
}

const Ping = model(PING.name, PING.schema);
const Pong = model(PONG.name, PONG.schema);

/** bench:hosting's native side: the hosted echo agent written as its own Worker with lib/agent. */
const agent = defineAgent<NativeEnv>({
  name: 'bench-echo',
  title: 'bench echo',
  readme: '',
  settings: (env) => ({
    seed: env.SEED,
    webhookUrl: 'http://native.bench/webhook',
    registryUrl: 'http://registry.invalid',
    replayLedger: env.REPLAY_LEDGER,
    outbox: env.OUTBOX,
    allowPrivateUrls: true,
    // The sender answers synchronously; nothing is resolved through a registry.
    resolver: new StaticResolver({}),
  }),
});

agent.onMessage(Ping, async (ctx, sender, message) => {
  await ctx.send(sender, Pong({ text: message.text }));
});

export default agent;
