#!/usr/bin/env bash
# `npm test`: the whole suite, from a clean clone. Installs what is missing, then runs typecheck, lint,
# unit tests, the integration suite on PGlite, the same suite on a real PostgreSQL server started here on
# a free port, and the end-to-end journeys in Debian's Chromium against the built app.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
results="$root/.tmp/test-results"
rm -rf "$results" && mkdir -p "$results"
pgdir=$(mktemp -d /tmp/parla-pg.XXXXXX)
step() { printf '\n\033[1m== %s\033[0m\n' "$1"; }
summarized=false
# A leg that fails stops the run (set -e); the legs that ran are still summed up, with the tests skipped
# for want of a model and why, so a failure elsewhere does not hide what this machine could not test.
cleanup() {
  local status=$?
  if [[ $summarized == false ]] && compgen -G "$results/*.json" >/dev/null; then
    step "summary of the legs that ran (stopped at a failure)"
    node scripts/test-summary.mjs "$results" || true
  fi
  bash scripts/postgres-test-server.sh stop "$pgdir" || true
  exit "$status"
}
trap cleanup EXIT
vitest_leg() { # name, then vitest arguments
  local name=$1; shift
  npx vitest run "$@" --reporter=default --reporter=json --outputFile.json="$results/$name.json"
}

step "install: Debian packages and npm dependencies"
bash scripts/install-system-deps.sh test
bash scripts/ensure-node-deps.sh

step "typecheck"
npm run typecheck --silent

step "lint"
npm run lint --silent

step "unit tests"
vitest_leg unit --project unit --project web --project web-mocks

step "stress tests (engines)"
vitest_leg stress --project stress

step "integration tests on PGlite"
vitest_leg integration-pglite --project integration

step "integration tests on PostgreSQL"
DATABASE_URL=$(bash scripts/postgres-test-server.sh start "$pgdir")
DATABASE_URL="$DATABASE_URL" vitest_leg integration-postgres --project integration

step "build"
npm run build --silent

step "end-to-end tests in Chromium"
vitest_leg e2e --config e2e/vitest.config.ts

step "summary"
summarized=true
node scripts/test-summary.mjs "$results"
