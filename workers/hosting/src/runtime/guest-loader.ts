import GUEST_SDK from '../../dist/guest-sdk.txt';
import { compile } from '../code/compile.ts';
import { parseCode } from '../code/files.ts';
import type { GuestContract } from '../guest/protocol.ts';
import type { AgentRow } from '../agents/records.ts';
import { agentBindings } from './exports.ts';
import { pythonGuestModules } from './python-guest.ts';
import { guardLoops } from './loop-guard.ts';

const MAIN_MODULE = '__rendezvous_main.js';

/** Per invocation of a hosted agent: CPU time and subrequests, where the runtime enforces them. */
const LIMITS = { cpuMs: 5_000, subRequests: 50 };

class GuestLoadError extends Error {
  override name = 'GuestLoadError';
}

/**
 * The hosted agent's Dynamic Worker. The cache id holds the code digest: new code takes effect at once,
 * and the same code is served from the loaded isolate. The code is compiled only when not cached.
 */
export function guestOf(
  env: Pick<HostingEnv, 'LOADER'>,
  agent: Pick<AgentRow, 'address' | 'code' | 'code_digest' | 'name'>,
): Service<GuestContract> {
  const { address, code } = agent;
  if (code === null) throw new GuestLoadError('the agent has no code yet');
  const stub = env.LOADER.get(`${address}:${agent.code_digest}`, () => {
    const parsed = parseCode(code);
    if (!parsed.ok) throw new GuestLoadError(parsed.error.detail.map((issue) => issue.msg).join('; '));
    const python = parsed.files.some((file) => file.language === 'python');
    const bindings = agentBindings(address, python);
    const worker = {
      compatibilityDate: '2026-04-20',
      mainModule: MAIN_MODULE,
      env: { HOST: bindings.host, AGENT_ADDRESS: address },
      globalOutbound: bindings.outbound,
      limits: LIMITS,
    };
    if (python) return { ...worker, modules: pythonGuestModules(parsed.files, parsed.main, agent.name, MAIN_MODULE) };
    const compiled = compile(parsed.files);
    if (!compiled.ok) throw new GuestLoadError(`compilation failed: ${compiled.message}`);
    const modules: Record<string, WorkerLoaderModule> = {};
    for (const [name, js] of Object.entries(compiled.modules)) {
      const guarded = guardLoops(js, name);
      if (!guarded.ok) throw new GuestLoadError(guarded.message);
      modules[name] = { js: guarded.js };
    }
    modules['rendezvous/agent'] = { js: GUEST_SDK };
    modules.zod = { js: `export { z, z as default } from 'rendezvous/agent';` };
    modules[MAIN_MODULE] = {
      js: `import * as main from ${JSON.stringify(`./${parsed.main}`)};
import { hostedEntrypoint } from 'rendezvous/agent';
export const Agent = hostedEntrypoint(main.default);
export default { fetch: () => new Response('a hosted agent receives messages at the platform\\'s /v1/hosting/submit', { status: 404 }) };`,
    };
    return { ...worker, modules };
  });
  return stub.getEntrypoint<GuestContract>('Agent');
}

/** The text of a failure to load or run guest code, for the agent's logs. */
export function failureText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
