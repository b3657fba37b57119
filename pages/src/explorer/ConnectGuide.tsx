import { REGISTRY_URL } from '../api/config.ts';

/** The Python lines that connect a uAgents agent without a public URL to this registry by mailbox (docs/mailbox.md). */
export function ConnectGuide() {
  const code = `from uagents import Agent, Context, Model

agent = Agent(
    name="my-agent",
    seed="a long secret phrase only this agent knows",
    mailbox=True,
    agentverse="${REGISTRY_URL}",
)

@agent.on_event("startup")
async def hello(ctx: Context):
    ctx.logger.info(f"my address is {agent.address}")

agent.run()`;
  return (
    <details class="ui-panel connect-guide">
      <summary>Connect a local agent</summary>
      <p>
        An agent on your laptop or behind NAT needs no public URL: with <code>mailbox=True</code> its messages wait in a mailbox on this
        registry and the agent collects them.
      </p>
      <pre class="ui-mono">
        <code>{code}</code>
      </pre>
      <p>
        Run it, open the inspector link it prints and press <em>Connect</em> with an API key that has the write permission (or POST{' '}
        <code>{'{"user_token": "rdv_…", "agent_type": "mailbox"}'}</code> to its <code>/connect</code> route). It then appears here, and its
        page shows how many messages wait for it.
      </p>
    </details>
  );
}
