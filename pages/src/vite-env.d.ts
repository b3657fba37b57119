/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Base URL of the router agent (reference application). */
  readonly VITE_ROUTER_URL?: string;
  /** Base URL of the registry Worker (agents explorer, API keys). */
  readonly VITE_REGISTRY_URL?: string;
  /** Base URL of the chat Worker, without /v1 (chat playground). */
  readonly VITE_CHAT_URL?: string;
}
