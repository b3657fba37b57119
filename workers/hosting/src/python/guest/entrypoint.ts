import { WorkerEntrypoint } from 'cloudflare:workers';
import type { Message } from '../../../../../lib/agent/model.ts';
import type {
  GuestAnswer,
  GuestCalls,
  GuestDescription,
  GuestEnv,
  IncomingMessage,
  RestAnswer,
  RestRequest,
} from '../../guest/protocol.ts';
import { startPython } from './load-pyodide.ts';

type LogLevel = 'debg' | 'info' | 'warn' | 'erro';

/** The Python runtime's functions (site/_rendezvous_runtime.py) as JavaScript sees them. */
interface PythonRuntime {
  load(files: string, main: string, address: string, name: string, secrets: string): void;
  set_secrets(secrets: string): void;
  describe(): string;
  message(host: PythonHost, storage: string, sender: string, session: string, digest: string, payload: string): Promise<string>;
  rest(host: PythonHost, storage: string, method: string, path: string, body: string): Promise<string>;
  run(host: PythonHost, storage: string, what: 'startup' | 'shutdown' | 'interval', index?: number): Promise<void>;
}

/** What Python's Context calls for one invocation (uagents/context.py). */
interface PythonHost {
  send(to: string, digest: string, protocol: string | undefined, payload: string, session: string): Promise<void>;
  send_and_receive(
    to: string,
    digest: string,
    protocol: string | undefined,
    payload: string,
    session: string,
    timeout: number,
  ): Promise<string>;
  log(level: LogLevel, text: string): void;
  storage_set(key: string, value: string): void;
  storage_delete(key: string): void;
}

/** Log lines written outside any call (print() while the code loads): flushed by the next call. */
const stray: Promise<unknown>[] = [];

let python: Promise<{ runtime: PythonRuntime }> | undefined;

/** Pyodide and the agent's code, loaded once per isolate (the host's start warms it through describe()). */
function ready(env: GuestEnv, files: Record<string, string>, main: string, name: string) {
  python ??= (async () => {
    const pyodide = await startPython(await env.HOST.pythonSnapshot(), (level, line) =>
      stray.push(env.HOST.log(level, line).catch(() => undefined)),
    );
    const runtime = pyodide.pyimport('_rendezvous_runtime') as unknown as PythonRuntime;
    runtime.load(JSON.stringify(files), main, env.AGENT_ADDRESS, name, JSON.stringify(await env.HOST.secrets()));
    return { runtime };
  })().catch((error: unknown) => {
    // A failed load is not kept: the next call tries again (and reports the error again).
    python = undefined;
    throw error;
  });
  return python;
}

const message = (digest: string, protocol: string | undefined, payload: string): Message => ({
  schemaDigest: String(digest),
  protocolDigest: typeof protocol === 'string' ? protocol : null,
  payload: JSON.parse(String(payload)) as unknown,
});

/**
 * One invocation's bridge: the agent's storage as JSON (read when the call begins; writes go out in order),
 * its log lines, its sends. The first message back to the sender in the incoming session is the reply.
 * The agent's secrets are read again too, so that a secret set while it runs is seen by its next call.
 */
async function invocation(env: GuestEnv, runtime: PythonRuntime, incoming?: IncomingMessage) {
  const host = env.HOST;
  const [entries, secrets] = await Promise.all([host.storageEntries(), host.secrets()]);
  runtime.set_secrets(JSON.stringify(secrets));
  const storage = JSON.stringify(Object.fromEntries(Object.entries(entries).map(([key, value]) => [key, parsed(value)])));
  const pending: Promise<unknown>[] = [];
  let writes: Promise<unknown> = Promise.resolve();
  let reply: Message | null = null;
  const bridge: PythonHost = {
    async send(to, digest, protocol, payload, session) {
      const outgoing = message(digest, protocol, payload);
      if (incoming && !reply && to === incoming.sender && session === incoming.session) {
        reply = outgoing;
        return;
      }
      await host.send(String(to), outgoing, String(session));
    },
    async send_and_receive(to, digest, protocol, payload, session, timeout) {
      const [received, status] = await host.sendAndReceive(String(to), message(digest, protocol, payload), {
        session: String(session),
        timeout: Number(timeout) * 1000,
      });
      return JSON.stringify({ reply: received, status });
    },
    log(level, text) {
      pending.push(host.log(level, String(text)).catch(() => undefined));
    },
    storage_set(key, value) {
      writes = writes.then(() => host.storageSet(String(key), String(value)));
    },
    storage_delete(key) {
      writes = writes.then(() => host.storageDelete(String(key)));
    },
  };
  const finish = async () => {
    try {
      await writes;
    } catch (error) {
      bridge.log('erro', `a storage write failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    await Promise.all([...pending, ...stray.splice(0)]);
  };
  return { bridge, storage, finish, reply: () => reply };
}

function parsed(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

const failureText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The Dynamic Worker's entrypoint for Python code: the same calls as a TypeScript guest's (GuestContract), so
 * the host treats both alike. `files` are the uploaded modules by name, `main` the one run as __main__, `name`
 * the agent's name on the platform (what `Agent()` without a name is called).
 */
export function pythonEntrypoint(files: Record<string, string>, main: string, name: string) {
  return class PythonAgentEntrypoint extends WorkerEntrypoint<GuestEnv> implements GuestCalls {
    async describe(): Promise<GuestDescription> {
      const { runtime } = await ready(this.env, files, main, name);
      await Promise.all(stray.splice(0));
      return JSON.parse(runtime.describe()) as GuestDescription;
    }

    async message(incoming: IncomingMessage): Promise<GuestAnswer> {
      const { runtime } = await ready(this.env, files, main, name);
      const call = await invocation(this.env, runtime, incoming);
      try {
        const answer = JSON.parse(
          await runtime.message(
            call.bridge,
            call.storage,
            incoming.sender,
            incoming.session,
            incoming.schemaDigest,
            JSON.stringify(incoming.payload),
          ),
        ) as { ok: true } | Extract<GuestAnswer, { ok: false }>;
        return answer.ok ? { ok: true, result: null, reply: call.reply() } : answer;
      } finally {
        await call.finish();
      }
    }

    async rest(request: RestRequest): Promise<RestAnswer> {
      const { runtime } = await ready(this.env, files, main, name);
      const call = await invocation(this.env, runtime);
      try {
        const answer = JSON.parse(await runtime.rest(call.bridge, call.storage, request.method, request.path, request.body ?? '')) as
          | { status: 200; body: Record<string, unknown> }
          | { status: 400 | 404 | 500; body: string };
        return answer.status === 200 ? { ok: true, body: answer.body } : { ok: false, status: answer.status, message: answer.body };
      } finally {
        await call.finish();
      }
    }

    async startup(): Promise<void> {
      await this.run('startup');
    }

    async shutdown(): Promise<void> {
      await this.run('shutdown');
    }

    async interval(index: number): Promise<void> {
      await this.run('interval', index);
    }

    private async run(what: 'startup' | 'shutdown' | 'interval', index = 0): Promise<void> {
      const { runtime } = await ready(this.env, files, main, name);
      const call = await invocation(this.env, runtime);
      try {
        await runtime.run(call.bridge, call.storage, what, index);
      } catch (error) {
        call.bridge.log('erro', `${what} failed: ${failureText(error)}`);
      } finally {
        await call.finish();
      }
    }
  };
}
