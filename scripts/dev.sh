#!/usr/bin/env bash
# `npm run dev`: the server under tsx watch on :8080 and the Vite dev server (which proxies the API).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-system-deps.sh runtime
bash scripts/ensure-node-deps.sh
trap 'kill 0' EXIT
npm run dev -w @parla/server &
npm run dev -w @parla/web &
wait
