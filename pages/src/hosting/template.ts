/** The code a new hosted agent starts with: a complete agent against `rendezvous/agent`. */
export const AGENT_TEMPLATE = `import { defineAgent, model, z } from 'rendezvous/agent';

const Greeting = model('Greeting', z.object({ text: z.string() }));
const Reply = model('Reply', z.object({ text: z.string(), count: z.number() }));

const agent = defineAgent({ name: 'my agent' });

agent.onStartup(async (ctx) => {
  ctx.logger.info(\`\${ctx.name} is up at \${ctx.address}\`);
});

agent.onMessage(Greeting, async (ctx, sender, message) => {
  const count = ((await ctx.storage.get<number>('greetings')) ?? 0) + 1;
  await ctx.storage.set('greetings', count);
  ctx.logger.info(\`greeting \${count} from \${sender}: \${message.text}\`);
  await ctx.send(sender, Reply({ text: \`hello, \${message.text}\`, count }));
});

export default agent;
`;

/** The main file's source out of Agentverse's code string (a JSON list of files), or the string itself. */
export function mainSource(code: string | null): string {
  if (code === null) return AGENT_TEMPLATE;
  try {
    const files = JSON.parse(code) as { name: string; value: string }[];
    if (Array.isArray(files)) return (files.find((file) => file.name === 'agent.ts') ?? files[0])?.value ?? '';
  } catch {
    // Raw source, as older clients send it.
  }
  return code;
}
