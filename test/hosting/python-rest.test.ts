import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { accountKey, call, codeOf, createAgent, json, logLine, start, storageValue } from './helpers.ts';

/** uagents' REST handlers, as its documentation writes them: a GET and a POST with their models. */
const REST_AGENT = `from uagents import Agent, Context, Model


class Note(Model):
    text: str
    priority: int = 1


class Saved(Model):
    count: int
    last: str


class Status(Model):
    name: str
    notes: int


class Wrong(Model):
    nothing: str


agent = Agent(name="notebook")


@agent.on_rest_get("/status", Status)
async def status(ctx: Context) -> Status:
    return Status(name=ctx.agent.name, notes=ctx.storage.get("notes") or 0)


@agent.on_rest_post("/notes", Note, Saved)
async def save(ctx: Context, req: Note) -> dict:
    count = (ctx.storage.get("notes") or 0) + 1
    ctx.storage.set("notes", count)
    ctx.logger.info(f"note {count}: {req.text} (priority {req.priority})")
    return {"count": count, "last": req.text}


@agent.on_rest_get("/wrong", Status)
def wrong(ctx: Context):
    return Wrong(nothing="at all")


@agent.on_rest_get("/broken", Status)
def broken(ctx: Context):
    raise RuntimeError("the handler broke")


if __name__ == "__main__":
    agent.run()
`;

const rest = (address: string, path: string, body?: unknown) =>
  SELF.fetch(`http://hosting.test/v1/hosting/rest/${address}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });

describe("a Python agent's REST endpoints", () => {
  it('serves on_rest_get and on_rest_post: the request model validated, the response model answered, storage and logs shared', async () => {
    const key = await accountKey();
    const agent = await createAgent(key, 'python notebook');
    await json(call(key, 'PUT', `/v1/hosting/agents/${agent.address}/code`, { code: codeOf({ 'agent.py': REST_AGENT }, 'python') }));

    expect(await json(rest(agent.address, '/status'), 503)).toEqual({ detail: 'this hosted agent is stopped; send again later' });
    expect((await start(key, agent.address)).running).toBe(true);

    expect(await json(rest(agent.address, '/status'))).toEqual({ name: 'notebook', notes: 0 });
    expect(await json(rest(agent.address, '/notes', { text: 'first' }))).toEqual({ count: 1, last: 'first' });
    expect(await json(rest(agent.address, '/notes', { text: 'second', priority: 3 }))).toEqual({ count: 2, last: 'second' });
    expect(await json(rest(agent.address, '/status'))).toEqual({ name: 'notebook', notes: 2 });
    expect(await storageValue(key, agent.address, 'notes')).toBe('2');
    await logLine(key, agent.address, 'note 2: second (priority 3)');

    // The request model is validated before the handler runs: nothing is stored.
    const invalid = await json<{ detail: string }>(rest(agent.address, '/notes', { text: 7 }), 400);
    expect(invalid.detail).toMatch(/^the body is not a Note: Note\.text/);
    expect((await json<{ detail: string }>(rest(agent.address, '/notes', 'not json'), 400)).detail).toMatch(/^the body is not a Note/);
    expect((await json<{ detail: string }>(rest(agent.address, '/notes', ''), 400)).detail).toBe('POST /notes takes a JSON body: a Note');
    expect(await json(rest(agent.address, '/notes', `{"text": "${'x'.repeat(1024 * 1024)}"}`), 413)).toEqual({
      detail: 'the body is larger than 1 MiB',
    });
    expect(await storageValue(key, agent.address, 'notes')).toBe('2');

    // Only what the agent declares, by method and path.
    expect(await json(rest(agent.address, '/nowhere'), 404)).toEqual({ detail: 'this agent serves no GET /nowhere' });
    expect(await json(rest(agent.address, '/status', { text: 'x' }), 404)).toEqual({ detail: 'this agent serves no POST /status' });
    expect(await json(rest('agent1qnotanagent', '/status'), 404)).toEqual({ detail: 'no hosted agent has this address' });

    // The agent's own failures: 500, the reason in its logs.
    expect(await json(rest(agent.address, '/wrong'), 500)).toEqual({
      detail: "the agent's GET /wrong handler answered what is not a Status",
    });
    await logLine(key, agent.address, 'REST handler GET /wrong answered what is not a Status');
    expect(await json(rest(agent.address, '/broken'), 500)).toEqual({
      detail: "the agent's GET /broken handler failed: RuntimeError: the handler broke",
    });
    await logLine(key, agent.address, 'RuntimeError: the handler broke');
  }, 60_000);

  it('runs under the watchdog: a handler past its budget stops the agent, as a message handler does', async () => {
    const key = await accountKey();
    const agent = await createAgent(key, 'python sleeper');
    const code = `import asyncio

from uagents import Agent, Context, Model


class Done(Model):
    ok: bool


agent = Agent()


@agent.on_rest_get("/slow", Done)
async def slow(ctx: Context):
    await asyncio.sleep(600)
    return Done(ok=True)
`;
    await json(call(key, 'PUT', `/v1/hosting/agents/${agent.address}/code`, { code: codeOf({ 'agent.py': code }, 'python') }));
    await start(key, agent.address);
    const answer = await json<{ detail: string }>(rest(agent.address, '/slow'), 502);
    expect(answer.detail).toContain('the rest call did not answer within its budget of 30000 ms');
    expect(await json(call(key, 'GET', `/v1/hosting/agents/${agent.address}`))).toMatchObject({ running: false });
    await logLine(key, agent.address, '(during a rest call)');
    expect(await json(rest(agent.address, '/slow'), 503)).toEqual({ detail: 'this hosted agent is stopped; send again later' });
  }, 90_000);
});
