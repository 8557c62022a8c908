#!/usr/bin/env bash
# Installs the npm dependencies when node_modules is missing or older than the lockfile, then fetches
# the speech-to-text model files when they are missing (scripts/fetch-models.mjs).
# `npm install` rather than `npm ci`: a registry mirror without some optional platform binaries (e.g.
# Biome's builds for other systems) makes npm leave those out of the lockfile, and `npm ci` then refuses
# the lockfile as "out of sync". `npm install` installs the locked versions just the same.
set -euo pipefail
cd "$(dirname "$0")/.."
stamp=node_modules/.package-lock.json
if [[ ! -f "$stamp" || package-lock.json -nt "$stamp" || package.json -nt "$stamp" ]]; then
  echo "Installing npm dependencies…"
  # onnxruntime-node (the neural voices' runtime) has its CPU binaries in the package; its postinstall
  # would fetch CUDA binaries from outside the registries and fail the install. package.json's
  # allowScripts denies that script (npm 11.19+); the variable skips it on an older npm.
  ONNXRUNTIME_NODE_INSTALL=skip npm install --no-audit --no-fund --loglevel=error
fi
# The speech-to-text models (Moonshine, silero VAD) come out of npm tarballs into vendor/models.
node scripts/fetch-models.mjs
