/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Base URL of the router agent (reference application). */
  readonly VITE_ROUTER_URL?: string;
}
