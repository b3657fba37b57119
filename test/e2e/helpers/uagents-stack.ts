import { join } from 'node:path';
import type { Permission } from '../../../schemas/keys.ts';
import { createDevKey } from '../../../scripts/dev/bootstrap-key.ts';
import { readDevVars } from '../../../scripts/stack/dev-vars.ts';
import type { ServiceName } from '../../../scripts/stack/ports.ts';
import { createTempStack, type TempStack } from './temp-stack.ts';

export interface UagentsStack {
  temp: TempStack;
  /** The registry's URL, which the uAgents scripts are given as Agentverse's. */
  base: string;
  /** A key of a new account, minted with the registry's admin token. */
  key: string;
}

/**
 * The stack the uAgents e2e tests run against (uagents-python.ts runs their scripts): the registry, then `also`
 * in that order, with fresh state, and a key of a new account.
 */
export async function startUagentsStack(keyName: string, permissions: Permission[], also: ServiceName[] = []): Promise<UagentsStack> {
  const temp = await createTempStack({ client: false });
  await temp.stack.start('registry');
  for (const name of also) await temp.stack.start(name);
  const base = temp.stack.urls.registry;
  const adminToken = readDevVars(join(temp.dir, 'secrets', 'registry.dev.vars')).ADMIN_TOKEN!;
  const { key } = await createDevKey({ registryUrl: base, adminToken, name: keyName, permissions });
  return { temp, base, key };
}
