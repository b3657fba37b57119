#!/usr/bin/env bash
# Regenerates each Worker's Env type from its wrangler config (`wrangler types`).
set -euo pipefail
cd "$(dirname "$0")/.."
export WRANGLER_SEND_METRICS=false
npx wrangler types -c wrangler.toml --env-interface RegistryEnv --include-runtime=false --strict-vars=false workers/registry/worker-configuration.d.ts
for pair in chat:ChatEnv router:RouterEnv specialist:SpecialistEnv hosting:HostingEnv; do
  worker=${pair%%:*}; interface=${pair##*:}
  npx wrangler types -c "workers/$worker/wrangler.toml" --env-interface "$interface" --include-runtime=false --strict-vars=false "workers/$worker/worker-configuration.d.ts"
done
npx wrangler types -c test/agent-runtime/wrangler.toml --env-interface AgentRuntimeEnv --include-runtime=false --strict-vars=false test/agent-runtime/worker-configuration.d.ts
