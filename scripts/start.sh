#!/usr/bin/env bash
# `npm start`: installs what is missing (Debian packages and npm dependencies), builds the web app and
# the server, then serves API + web on http://localhost:8080 with data under ./data. The server applies
# the database migrations itself before it listens. Extra arguments go to the server (--role=…).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-system-deps.sh runtime
bash scripts/ensure-node-deps.sh
npm run build --silent
exec node apps/server/dist/main.js "$@"
