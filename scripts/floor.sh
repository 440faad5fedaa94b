#!/usr/bin/env bash
# The bytes floor of the load test's mix (docs/benchmarks.md, "Compression by default"): every key's item, each alone,
# through xz -9e and zstd -19, beside this package's compression settings and BinaryFormatter+Deflate. Installs xz-utils
# and zstd with apt-get when missing; needs no memcached. Options go through, e.g.: scripts/floor.sh --profile seed.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v xz >/dev/null 2>&1 || missing+=(xz-utils)
command -v zstd >/dev/null 2>&1 || missing+=(zstd)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "Installing ${missing[*]} with apt-get..." >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1
exec dotnet run -c Release --project benchmarks/CacheSerializer.LoadTest -- floor "$@"
