import { createSignal, type Accessor } from 'solid-js';

/**
 * Secrets the user types in: kept in this tab's sessionStorage (gone when the tab closes), never in the
 * built code. `apiKey` is used by the explorer and the playground; `managerToken` (the admin token, or a
 * key with the `keys` permission) by the API keys screen; `hostingKey` (the `hosting` permission) by the hosted agents screen.
 */
export type CredentialName = 'apiKey' | 'managerToken' | 'hostingKey';

const STORAGE_PREFIX = 'rendezvous.';

function read(name: CredentialName): string {
  try {
    return sessionStorage.getItem(STORAGE_PREFIX + name) ?? '';
  } catch {
    return '';
  }
}

function makeCredential(name: CredentialName): [Accessor<string>, (value: string) => void] {
  const [value, setValue] = createSignal(read(name));
  const set = (next: string) => {
    const trimmed = next.trim();
    setValue(trimmed);
    try {
      if (trimmed) sessionStorage.setItem(STORAGE_PREFIX + name, trimmed);
      else sessionStorage.removeItem(STORAGE_PREFIX + name);
    } catch {
      // Storage refused (private mode): the value lives until the page closes.
    }
  };
  return [value, set];
}

const credentials: Record<CredentialName, [Accessor<string>, (value: string) => void]> = {
  apiKey: makeCredential('apiKey'),
  managerToken: makeCredential('managerToken'),
  hostingKey: makeCredential('hostingKey'),
};

export function credential(name: CredentialName): [Accessor<string>, (value: string) => void] {
  return credentials[name];
}
