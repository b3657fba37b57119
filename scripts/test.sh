#!/usr/bin/env bash
# Every test: strict type check of all projects, then all vitest projects (workerd, Node, end to end).
set -euo pipefail
cd "$(dirname "$0")/.."
export WRANGLER_SEND_METRICS=false
bash scripts/typecheck.sh
npx vitest run "$@"
