#!/usr/bin/env bash
# Every test: generated Env types up to date, strict type check of all projects, the guardrails (format, lint,
# unused exports), then all vitest projects (workerd, Node, end to end).
set -euo pipefail
cd "$(dirname "$0")/.."
export WRANGLER_SEND_METRICS=false
# Browser tests drive Debian's Chromium; install it when missing and we may (root with apt).
if ! command -v chromium >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  apt-get update && apt-get install -y chromium
fi
# The Python interop tests (the chat peer; uAgents' own mailbox and CLI code, test/interop/mailbox) run on Debian's
# packages: pydantic v1, ecdsa, aiohttp, uvicorn, requests, httpx (PyPI is not needed).
if ! /usr/bin/python3 -c 'import ecdsa, pydantic, aiohttp, uvicorn, requests, httpx' >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  apt-get update && apt-get install -y python3-pydantic python3-ecdsa python3-aiohttp python3-uvicorn python3-requests python3-httpx
fi
bash scripts/gen-types.sh --check
bash scripts/typecheck.sh
bash scripts/guardrails.sh
npx vitest run "$@"
