#!/usr/bin/env bash
# Installs everything errdex needs to build and test on Debian 12: system packages (apt; Chromium and a font
# for the browser test; clang and its sanitizer and libFuzzer runtimes for scripts/safety-nets.sh) and, from the npm registry as pinned by package-lock.json, the tree-sitter runtime
# and grammars as C sources and playwright-core for the browser test (install scripts off, so it downloads
# no browser: the test drives Debian's /usr/bin/chromium). Idempotent; run as root (or with sudo available).
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

PACKAGES=(
  build-essential cmake pkg-config git python3 python3-venv python3-requests python3-urllib3 ca-certificates
  libsqlite3-dev libgit2-dev nlohmann-json3-dev libcli11-dev libfmt-dev libxxhash-dev
  libgtest-dev libgmock-dev libbenchmark-dev libhyperscan-dev libre2-dev
  libcpp-httplib-dev libssl-dev zlib1g-dev libbrotli-dev libzstd-dev libjemalloc-dev libarchive-dev libabsl-dev
  python3-setuptools python3-wheel python3-pip
  chromium fonts-dejavu-core clang-format
  clang libclang-rt-14-dev
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node.js with npm: Debian's nodejs+npm, unless a Node.js that already bundles npm is installed.
if ! command -v npm >/dev/null 2>&1; then missing+=(nodejs npm); fi

if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: apt-get install ${missing[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# tree-sitter runtime and grammars (C sources) and playwright-core, exactly as pinned by package-lock.json.
if [ ! -f node_modules/.package-lock.json ] || ! cmp -s <(sed -n '/"packages"/,$p' package-lock.json | grep -E '"(version|integrity)"') \
     <(sed -n '/"packages"/,$p' node_modules/.package-lock.json | grep -E '"(version|integrity)"'); then
  npm ci --ignore-scripts --no-audit --no-fund >/dev/null
fi
echo "install-deps: ok" >&2
