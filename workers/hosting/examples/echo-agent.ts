// A complete hosted agent (docs/agents.md, "Hosted agents"): `npm start` creates and starts it as "Echo (example)".
import { defineAgent, model, z } from 'rendezvous/agent';

const Greeting = model('Greeting', z.object({ text: z.string() }));
const Reply = model('Reply', z.object({ text: z.string(), count: z.number() }));

const agent = defineAgent({ name: 'echo' });

agent.onStartup(async (ctx) => {
  ctx.logger.info(`echo ${ctx.address} is up`);
});

// Typed: Greeting in, Reply out in the same session (the sender's sendAndReceive gets it back at once).
agent.onMessage(Greeting, async (ctx, sender, message) => {
  const count = ((await ctx.storage.get<number>('greetings')) ?? 0) + 1;
  await ctx.storage.set('greetings', count);
  ctx.logger.info(`greeting ${count} from ${sender}: ${message.text}`);
  await ctx.send(sender, Reply({ text: `echo: ${message.text}`, count }));
});

// Plain JSON by shape, whatever the schema digest (what the Python fetchai SDK sends).
agent.onPayload(z.object({ request: z.string() }), async (_ctx, _sender, payload) => {
  return { answer: `echo: ${payload.request}` };
});

// Every minute, while running: a heartbeat in storage (and in the logs).
agent.onInterval({ period: 60 }, async (ctx) => {
  await ctx.storage.set('heartbeat', new Date().toISOString());
  ctx.logger.debug('heartbeat');
});

export default agent;
