#!/usr/bin/env bash
# Strict type check of every project: the shared code and Node tooling, each Worker with its own generated Env, the client.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
for project in . workers/registry workers/chat workers/router workers/specialist workers/hosting workers/hosting-vault workers/hosting/examples test/agent-runtime pages; do
  npx tsc --noEmit -p "$project" || status=1
done
exit $status
