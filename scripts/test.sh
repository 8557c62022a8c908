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
# Each step's time goes to $results/times.tsv (name, seconds), which the summary prints against the step's
# budget (scripts/test-summary.mjs) so that a leg growing towards the 30 minutes shows (issue 33 item 5).
run_start=$(date +%s)
step_name=''
step_start=0
end_step() {
  if [[ -n $step_name ]]; then printf '%s\t%s\n' "$step_name" $(($(date +%s) - step_start)) >>"$results/times.tsv"; fi
  step_name=''
}
step() { # name, title
  end_step
  printf '\n\033[1m== %s\033[0m\n' "$2"
  step_name=$1
  step_start=$(date +%s)
}
summarized=false
# A leg that fails stops the run (set -e); the legs that ran are still summed up, with the tests skipped
# for want of a model and why, so a failure elsewhere does not hide what this machine could not test.
cleanup() {
  local status=$?
  if [[ $summarized == false ]] && compgen -G "$results/*.json" >/dev/null; then
    end_step
    printf '\n\033[1m== %s\033[0m\n' "summary of the legs that ran (stopped at a failure)"
    node scripts/test-summary.mjs "$results" $(($(date +%s) - run_start)) || true
  fi
  bash scripts/postgres-test-server.sh stop "$pgdir" || true
  exit "$status"
}
trap cleanup EXIT
vitest_leg() { # name, then vitest arguments
  local name=$1; shift
  npx vitest run "$@" --reporter=default --reporter=json --outputFile.json="$results/$name.json"
}

step install "install: Debian packages and npm dependencies"
bash scripts/install-system-deps.sh test
bash scripts/ensure-node-deps.sh

step typecheck "typecheck"
npm run typecheck --silent

step lint "lint"
npm run lint --silent

step unit "unit tests"
vitest_leg unit --project unit --project web --project web-mocks

step stress "stress tests (engines)"
vitest_leg stress --project stress

step integration-pglite "integration tests on PGlite"
vitest_leg integration-pglite --project integration

step integration-postgres "integration tests on PostgreSQL"
DATABASE_URL=$(bash scripts/postgres-test-server.sh start "$pgdir")
DATABASE_URL="$DATABASE_URL" vitest_leg integration-postgres --project integration

step build "build"
npm run build --silent

step e2e "end-to-end tests in Chromium"
vitest_leg e2e --config e2e/vitest.config.ts

end_step
printf '\n\033[1m== %s\033[0m\n' "summary"
summarized=true
node scripts/test-summary.mjs "$results" $(($(date +%s) - run_start))
