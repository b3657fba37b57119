import { createEffect, createResource, createSignal, For, on, onCleanup } from 'solid-js';
import { latestLogs } from '../api/hosting.ts';

/** How often the logs refresh while shown. */
const LOG_REFRESH_MS = 2000;

/** The agent's latest log lines, refreshed while shown and kept scrolled to the newest unless the reader scrolled up. */
export function LiveLogs(props: { token: string; address: string }) {
  const [tick, setTick] = createSignal(0);
  const timer = setInterval(() => setTick(tick() + 1), LOG_REFRESH_MS);
  onCleanup(() => clearInterval(timer));
  const [logs] = createResource(
    () => [props.token, props.address, tick()] as const,
    ([key, address]) => latestLogs(key, address),
  );
  let view!: HTMLPreElement;
  let following = true;
  createEffect(
    on(
      () => logs.latest,
      () => {
        if (following) view.scrollTop = view.scrollHeight;
      },
    ),
  );
  return (
    <pre
      class="hosting-logs"
      data-testid="agent-logs"
      ref={view}
      onScroll={() => (following = view.scrollTop + view.clientHeight >= view.scrollHeight - 4)}
    >
      <For each={logs.latest ?? []}>{(line) => `${line.log_timestamp} ${line.log_level} ${line.log_entry}\n`}</For>
    </pre>
  );
}
