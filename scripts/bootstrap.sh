#!/usr/bin/env bash
# Installs what Tabula needs on Debian 12 (bookworm). Idempotent: a second run installs nothing.
# Only apt-get and npm; no downloaded binaries or browsers.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential g++ cmake ninja-build pkg-config
  libboost-dev nlohmann-json3-dev libsqlite3-dev libcli11-dev libfmt-dev libspdlog-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  clang libclang-rt-dev
  chromium fonts-dejavu-core sqlite3
)
# Node may come from another source that bundles npm (nodesource's nodejs conflicts with Debian's npm):
# only ask Debian for what is absent.
command -v node >/dev/null 2>&1 || packages+=(nodejs)
command -v npm >/dev/null 2>&1 || packages+=(npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap: installing ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  echo "bootstrap: Debian packages present"
fi

# The node suites: the browser tests drive Debian's chromium through playwright-core (never a downloaded
# browser); the API tests use ws. Each folder's package-lock.json pins the versions.
for suite in tests/e2e tests/api; do
  if [ ! -d "$suite/node_modules" ] || [ "$suite/package-lock.json" -nt "$suite/node_modules" ]; then
    echo "bootstrap: npm install ($suite)"
    (cd "$suite" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund --loglevel=error && touch node_modules)
  else
    echo "bootstrap: npm packages present ($suite)"
  fi
done
