import { createSignal, For, type JSX } from 'solid-js';
import { Dynamic } from 'solid-js/web';
import { ReferenceClient } from './reference/ReferenceClient.tsx';
import './app.css';

/** The app's screens; the reference client is the first. Each view mounts only while shown. */
const VIEWS: { id: string; title: string; component: () => JSX.Element }[] = [
  { id: 'ask', title: 'Ask an agent', component: ReferenceClient },
];

export function App() {
  const [current, setCurrent] = createSignal(VIEWS[0]!);
  return (
    <div class="shell">
      <header class="shell-header">
        <h1 class="brand">
          Rendezvous<small>agents that find each other and talk</small>
        </h1>
        <nav class="views">
          <For each={VIEWS}>
            {(view) => (
              <button type="button" aria-current={current().id === view.id ? 'page' : undefined} onClick={() => setCurrent(view)}>
                {view.title}
              </button>
            )}
          </For>
        </nav>
      </header>
      <main>
        <Dynamic component={current().component} />
      </main>
    </div>
  );
}
