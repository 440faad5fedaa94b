#!/usr/bin/env bash
# The README's main command: the load test of docs/loadtest.md on this machine, in one go.
# Installs memcached when it is missing, then runs every contender side by side against local memcached servers it
# starts (and stops) itself. Any option goes through, e.g.: scripts/loadtest.sh --short, --nodes 3, --help; and the
# scenarios: scripts/loadtest.sh farm (factory calls per expiry), scripts/loadtest.sh deploy (a rolling deploy of another contract),
# scripts/loadtest.sh migrate (a running EnyimMemcachedCore farm switched to this package, issue 31),
# scripts/loadtest.sh hybrid (HybridCache implementations side by side, issue 39; it also needs redis-server).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = hybrid ]; then
  bash scripts/ensure-memcached.sh --redis
else
  bash scripts/ensure-memcached.sh
fi

export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1
exec dotnet run -c Release --project benchmarks/CacheSerializer.LoadTest -- "$@"
