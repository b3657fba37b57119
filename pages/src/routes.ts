import { lazy, type Component } from 'solid-js';

/** One screen of the app: its hash id, its navigation title, and its code, loaded the first time it is opened. */
export type Route = { id: string; title: string; screen: Component };

/** A screen loaded on first use from its own chunk; `pick` takes the component out of the loaded module. */
function screen<M>(load: () => Promise<M>, pick: (module: M) => Component): Component {
  return lazy(async () => ({ default: pick(await load()) }));
}

/** The app's screens in navigation order; the first is shown when the URL names none. Add a screen with one line here. */
export const ROUTES: readonly Route[] = [
  {
    id: 'ask',
    title: 'Ask an agent',
    screen: screen(
      () => import('./ask/AskScreen.tsx'),
      (m) => m.AskScreen,
    ),
  },
  {
    id: 'explorer',
    title: 'Agents',
    screen: screen(
      () => import('./explorer/Explorer.tsx'),
      (m) => m.Explorer,
    ),
  },
  {
    id: 'playground',
    title: 'Chat',
    screen: screen(
      () => import('./playground/Playground.tsx'),
      (m) => m.Playground,
    ),
  },
  {
    id: 'keys',
    title: 'API keys',
    screen: screen(
      () => import('./keys/KeysScreen.tsx'),
      (m) => m.KeysScreen,
    ),
  },
  {
    id: 'hosting',
    title: 'Hosted agents',
    screen: screen(
      () => import('./hosting/HostingScreen.tsx'),
      (m) => m.HostingScreen,
    ),
  },
];
