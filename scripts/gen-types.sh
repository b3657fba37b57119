#!/usr/bin/env bash
# Generates each Worker's Env type (`wrangler types`) from committed inputs only: its wrangler config and the
# `.dev.vars.example` beside it, which names its secrets. A developer's own `.dev.vars` never reaches the types,
# so a fresh clone generates the same files. `--check` regenerates, compares with the files as they are, puts them
# back untouched and fails naming the stale ones (wrangler's own `--check` reads `.dev.vars`, not `--env-file`).
set -euo pipefail
cd "$(dirname "$0")/.."
export WRANGLER_SEND_METRICS=false CLOUDFLARE_INCLUDE_PROCESS_ENV=false CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV=true

# wrangler config, Env interface, generated file
targets=(
  'wrangler.toml RegistryEnv workers/registry/worker-configuration.d.ts'
  'workers/chat/wrangler.toml ChatEnv workers/chat/worker-configuration.d.ts'
  'workers/router/wrangler.toml RouterEnv workers/router/worker-configuration.d.ts'
  'workers/specialist/wrangler.toml SpecialistEnv workers/specialist/worker-configuration.d.ts'
  'workers/hosting/wrangler.toml HostingEnv workers/hosting/worker-configuration.d.ts'
  'workers/hosting-vault/wrangler.toml VaultEnv workers/hosting-vault/worker-configuration.d.ts'
  'test/agent-runtime/wrangler.toml AgentRuntimeEnv test/agent-runtime/worker-configuration.d.ts'
)

generate_all() {
  local config interface output
  for target in "${targets[@]}"; do
    read -r config interface output <<<"$target"
    if [ ! -f "$(dirname "$config")/.dev.vars.example" ]; then
      echo "$(dirname "$config")/.dev.vars.example is missing: it names the secrets of $config" >&2
      return 1
    fi
    # --env-file is read relative to the config's folder.
    npx wrangler types -c "$config" --env-file .dev.vars.example --env-interface "$interface" \
      --include-runtime=false --strict-vars=false "$output"
  done
}

if [ "${1:-}" != --check ]; then
  generate_all
  exit 0
fi

kept=$(mktemp -d)
outputs=()
for target in "${targets[@]}"; do
  read -r _ _ output <<<"$target"
  outputs+=("$output")
  mkdir -p "$kept/$(dirname "$output")"
  if [ -f "$output" ]; then cp "$output" "$kept/$output"; fi
done
put_back() {
  for output in "${outputs[@]}"; do
    if [ -f "$kept/$output" ]; then cp "$kept/$output" "$output"; else rm -f "$output"; fi
  done
  rm -rf "$kept"
}
trap put_back EXIT

log="$kept/wrangler.log"
if ! generate_all >"$log" 2>&1; then
  cat "$log" >&2
  exit 1
fi
stale=0
for output in "${outputs[@]}"; do
  if [ ! -f "$kept/$output" ]; then
    echo "$output is missing" >&2
    stale=1
  elif ! diff -u --label "$output (committed)" --label "$output (generated)" "$kept/$output" "$output" >&2; then
    stale=1
  fi
done
if [ "$stale" = 1 ]; then
  echo 'Generated Env types are stale: run `npm run types` and commit the result.' >&2
  exit 1
fi
echo 'Generated Env types are up to date.'
