import { createResource, createSignal, For, onCleanup } from 'solid-js';
import { storage } from '../api/hosting.ts';

const STORAGE_REFRESH_MS = 2000;

/** The agent's stored keys and their JSON values, refreshed while shown. */
export function StorageTable(props: { token: string; address: string }) {
  const [tick, setTick] = createSignal(0);
  const timer = setInterval(() => setTick(tick() + 1), STORAGE_REFRESH_MS);
  onCleanup(() => clearInterval(timer));
  const [items] = createResource(
    () => [props.token, props.address, tick()] as const,
    ([key, address]) => storage(key, address),
  );
  return (
    <table class="hosting-list">
      <tbody>
        <For each={items.latest?.items ?? []}>
          {(item) => (
            <tr>
              <td class="ui-mono">{item.key}</td>
              <td class="ui-mono">{item.value}</td>
            </tr>
          )}
        </For>
      </tbody>
    </table>
  );
}
