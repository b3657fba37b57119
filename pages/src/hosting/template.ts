import type { CodeFile } from '../../../schemas/hosting.ts';

export type EditorLanguage = 'typescript' | 'python';

/** A complete agent against `rendezvous/agent`: a new TypeScript agent starts with it. */
const TYPESCRIPT_TEMPLATE = `import { defineAgent, model, z } from 'rendezvous/agent';

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

/** An Agentverse-style uagents agent: a new Python agent starts with it. */
const PYTHON_TEMPLATE = `# An Agentverse-style agent: uagents, hosted on Rendezvous
from uagents import Agent, Context, Model


class Greeting(Model):
    text: str


class Reply(Model):
    text: str
    count: int


agent = Agent(name="my agent")


@agent.on_event("startup")
async def introduce(ctx: Context):
    ctx.logger.info(f"{agent.name} is up at {agent.address}")


@agent.on_message(model=Greeting)
async def greet(ctx: Context, sender: str, msg: Greeting):
    count = (ctx.storage.get("greetings") or 0) + 1
    ctx.storage.set("greetings", count)
    ctx.logger.info(f"greeting {count} from {sender}: {msg.text}")
    await ctx.send(sender, Reply(text=f"hello, {msg.text}", count=count))


if __name__ == "__main__":
    agent.run()
`;

export const TEMPLATES: Record<EditorLanguage, CodeFile> = {
  typescript: { name: 'agent.ts', value: TYPESCRIPT_TEMPLATE, language: 'typescript' },
  python: { name: 'agent.py', value: PYTHON_TEMPLATE, language: 'python' },
};

const MAIN_NAMES = ['agent.ts', 'agent.js', 'main.ts', 'main.js', 'index.ts', 'index.js', 'agent.py', 'main.py'];

/** The uploaded files out of Agentverse's code string (a JSON list of files; raw source is one main file). */
export function filesOf(code: string | null): CodeFile[] {
  if (code === null) return [TEMPLATES.typescript];
  try {
    const files = JSON.parse(code) as CodeFile[];
    if (Array.isArray(files) && files.length > 0) return files;
  } catch {
    // Raw source, as older clients send it: Python if it imports uagents, as the platform reads it.
  }
  return [/^\s*(?:from|import)\s+uagents/m.test(code) ? { ...TEMPLATES.python, value: code } : { ...TEMPLATES.typescript, value: code }];
}

/** The file the editor shows: the agent's main file, as the platform chooses it. */
export function mainFile(files: CodeFile[]): CodeFile {
  return files.find((file) => MAIN_NAMES.includes(file.name)) ?? files[0]!;
}

/** The editor's highlighting for a file. */
export function editorLanguage(file: CodeFile): EditorLanguage {
  return ['python', 'py'].includes(file.language.toLowerCase()) ? 'python' : 'typescript';
}
