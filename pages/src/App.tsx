import { createSignal, ErrorBoundary, For, Show } from 'solid-js';
import { Dynamic } from 'solid-js/web';
import { ROUTES } from './routes.ts';
import './app.css';
import './styles/navigation.css';

/**
 * The route named by the URL's hash (`#keys`, or `#explorer/<address>` for a page within a screen), so a screen
 * can be linked to; the first route otherwise.
 */
const routeOfHash = () => ROUTES.find((route) => location.hash.split('/')[0] === `#${route.id}`) ?? ROUTES[0]!;

export function App() {
  const [current, setCurrent] = createSignal(routeOfHash());
  window.addEventListener('hashchange', () => setCurrent(routeOfHash()));
  return (
    <div class="shell">
      <header class="shell-header">
        <h1 class="brand">
          Rendezvous<small>agents that find each other and talk</small>
        </h1>
        <nav class="views">
          <For each={ROUTES}>
            {(route) => (
              <button
                type="button"
                aria-current={current().id === route.id ? 'page' : undefined}
                onClick={() => (location.hash = route.id)}
              >
                {route.title}
              </button>
            )}
          </For>
        </nav>
      </header>
      <main>
        {/* Keyed: each screen gets a fresh boundary, so a failed screen does not stay failed after navigating away. */}
        <Show when={current()} keyed>
          {(route) => (
            <ErrorBoundary
              fallback={(error: Error, reset) => (
                <div class="screen-failed" role="alert">
                  <p>This screen failed: {error.message}</p>
                  <button type="button" onClick={reset}>
                    Try again
                  </button>
                </div>
              )}
            >
              {/* No Suspense here: it would also catch the screens' own resources and hide a whole screen while one reloads. */}
              <Dynamic component={route.screen} />
            </ErrorBoundary>
          )}
        </Show>
      </main>
    </div>
  );
}
