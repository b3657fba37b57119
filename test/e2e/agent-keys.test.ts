import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiKey, keyListSchema } from '../../schemas/keys.ts';
import { readDevVars } from '../../scripts/stack/dev-vars.ts';
import { secretsFiles } from '../../scripts/stack/secrets.ts';
import { ROOT } from '../../scripts/stack/stack.ts';
import { createTempStack, type TempStack } from './helpers/temp-stack.ts';

/** Issue 14: each agent of the local stack holds its own key with only the permissions its job needs. */
describe('npm start gives each agent its own least-privilege key', () => {
  let temp: TempStack;
  let keys: ApiKey[];
  let secrets: ReturnType<typeof secretsFiles>;

  beforeAll(async () => {
    temp = await createTempStack();
    await temp.stack.start('registry');
    secrets = secretsFiles(ROOT, join(temp.dir, 'secrets'));
    const adminToken = readDevVars(secrets.registry).ADMIN_TOKEN!;
    const listed = await fetch(`${temp.stack.urls.registry}/v1/keys`, { headers: { Authorization: `Bearer ${adminToken}` } });
    keys = keyListSchema.parse(await listed.json()).keys;
  });
  afterAll(async () => {
    await temp?.dispose();
  });

  /** The listed key whose id the token carries (`rdv_<id>_<secret>`): its secret is never listed. */
  const keyOf = (token: string | undefined): ApiKey => {
    const found = keys.find((key) => token?.startsWith(`${key.prefix}_`));
    if (!found) throw new Error(`no listed key for ${token?.slice(0, 20)}`);
    return found;
  };

  it('no two agents share a key, and each has only what it uses', () => {
    const router = keyOf(readDevVars(secrets.router).REGISTRY_API_KEY);
    const specialist = keyOf(readDevVars(secrets.specialist).REGISTRY_API_KEY);
    const specialistChat = keyOf(readDevVars(secrets.specialist).CHAT_API_KEY);
    const hosting = keyOf(readDevVars(secrets.hosting).REGISTRY_API_KEY);
    const chatAgent = keyOf(readDevVars(secrets.chat).CHAT_AGENT_REGISTRY_KEY);
    const all = [router, specialist, specialistChat, hosting, chatAgent];
    expect(new Set(all.map((key) => key.id)).size).toBe(all.length);

    for (const key of [router, specialist, hosting, chatAgent]) expect(key.permissions.toSorted()).toEqual(['read', 'write']);
    expect(specialistChat.permissions).toEqual(['chat']);
    for (const key of all) expect(key.permissions).not.toContain('keys');
  });

  it('the router trusts its operator’s account: the specialist is in it, hosted tenants and the chat agent are not', () => {
    const router = keyOf(readDevVars(secrets.router).REGISTRY_API_KEY);
    const specialist = keyOf(readDevVars(secrets.specialist).REGISTRY_API_KEY);
    const hosting = keyOf(readDevVars(secrets.hosting).REGISTRY_API_KEY);
    const chatAgent = keyOf(readDevVars(secrets.chat).CHAT_AGENT_REGISTRY_KEY);
    expect(specialist.account_id).toBe(router.account_id);
    expect(hosting.account_id).not.toBe(router.account_id);
    expect(chatAgent.account_id).not.toBe(router.account_id);
    expect(chatAgent.account_id).not.toBe(hosting.account_id);
  });
});
