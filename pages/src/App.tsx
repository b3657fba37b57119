import { createSignal, For, type JSX } from 'solid-js';
import { Dynamic } from 'solid-js/web';
import { Explorer } from './explorer/Explorer.tsx';
import { HostingScreen } from './hosting/HostingScreen.tsx';
import { KeysScreen } from './keys/KeysScreen.tsx';
import { Playground } from './playground/Playground.tsx';
import { ReferenceClient } from './reference/ReferenceClient.tsx';
import './app.css';
import './styles/navigation.css';

/** The app's screens; the reference client is the first. Each view mounts only while shown. */
const VIEWS: { id: string; title: string; component: () => JSX.Element }[] = [
  { id: 'ask', title: 'Ask an agent', component: ReferenceClient },
  { id: 'explorer', title: 'Agents', component: Explorer },
  { id: 'playground', title: 'Chat', component: Playground },
  { id: 'keys', title: 'API keys', component: KeysScreen },
  { id: 'hosting', title: 'Hosted agents', component: HostingScreen },
];

/** The view named by the URL's hash (`#keys`), so a screen can be linked to; the first view otherwise. */
const viewOfHash = () => VIEWS.find((view) => `#${view.id}` === location.hash) ?? VIEWS[0]!;

export function App() {
  const [current, setCurrent] = createSignal(viewOfHash());
  window.addEventListener('hashchange', () => setCurrent(viewOfHash()));
  return (
    <div class="shell">
      <header class="shell-header">
        <h1 class="brand">
          Rendezvous<small>agents that find each other and talk</small>
        </h1>
        <nav class="views">
          <For each={VIEWS}>
            {(view) => (
              <button type="button" aria-current={current().id === view.id ? 'page' : undefined} onClick={() => (location.hash = view.id)}>
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
