#!/usr/bin/env bash
# The whole test suite on a fresh machine: installs memcached, memcaslap and redis-server when missing (the
# RedisServer launcher's tests and the client benchmark's StackExchange.Redis tests start real redis-server
# processes), builds everything (package, tests, benchmarks, samples) in Release, runs every test, and prints one
# closing line.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/ensure-memcached.sh --tools --redis

export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1

dotnet build CacheSerializer.sln -c Release

log=$(mktemp)
set +e
dotnet test CacheSerializer.sln -c Release --no-build --logger "console;verbosity=normal" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e

# One plain closing line for whoever reads the log: "N passed, N failed, N skipped", from the runner's summary
# ("Passed: N" / "Failed: N" / "Skipped: N" lines at normal verbosity).
count() { sed -nE "s/^ +$1: +([0-9]+)$/\1/p" "$log" | awk '{s+=$1} END {print s+0}'; }
passed=$(count Passed); failed=$(count Failed); skipped=$(count Skipped)
# CI shows only the end of the log: name the failed tests again there, with the first lines of each one's message.
if grep -qE '^ +Failed [A-Za-z]' "$log"; then
  echo "failed tests:"
  grep -E -A 6 '^ +Failed [A-Za-z]' "$log" | cut -c1-400
fi
rm -f "$log"
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
echo "tests: $passed passed, $failed failed, $skipped skipped"
exit "$status"
