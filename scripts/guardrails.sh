#!/usr/bin/env bash
# The guardrails npm test enforces: formatting (Biome, 140 columns), lint (Biome's recommended rules and import
# cycles, type-only imports included; typescript-eslint's floating and misused promises, which need the type
# checker) and unused exports, files and dependencies (knip). Every tool runs and lists all it finds; the script
# fails when any of them found something. `npm run format` applies the formatter, `npm run lint:fix` Biome's safe fixes.
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
run() {
  echo "guardrails: $*"
  "$@" || status=1
}
run npx biome ci --error-on-warnings --max-diagnostics=none .
run npx eslint --max-warnings=0 .
run npx knip
exit $status
