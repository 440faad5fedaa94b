#!/usr/bin/env bash
# The whole test suite on a fresh machine: installs memcached when missing, builds everything
# (package, tests, benchmarks, samples) in Release, runs every test, and prints one closing line.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/ensure-memcached.sh --tools

export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1

dotnet build CacheSerializer.sln -c Release

log=$(mktemp)
set +e
dotnet test CacheSerializer.sln -c Release --no-build --logger "console;verbosity=normal" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e

# One plain closing line for whoever reads the log: "N passed, N failed, N skipped".
passed=0; failed=0; skipped=0
while read -r f p s; do
  failed=$((failed + f)); passed=$((passed + p)); skipped=$((skipped + s))
done < <(sed -nE 's/.*Failed: +([0-9]+), Passed: +([0-9]+), Skipped: +([0-9]+).*/\1 \2 \3/p' "$log")
rm -f "$log"
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
echo "tests: $passed passed, $failed failed, $skipped skipped"
exit "$status"
