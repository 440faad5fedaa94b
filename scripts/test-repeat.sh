#!/usr/bin/env bash
# Runs the whole suite (scripts/test.sh) N times, each from a fresh clone of the current commit, one run at a time, and
# prints each run's closing line and the names of the tests that failed in it; exits non-zero when any run failed.
# A test that fails once in N runs is a defect (docs/contributing.md#repeated-runs).
#
#   bash scripts/test-repeat.sh 10                 # ten runs
#   bash scripts/test-repeat.sh --busy 5           # five runs, each with the machine kept busy beside it
#
# --busy starts one CPU-bound process per core for the length of each run (killed when the run ends), so timing
# assumptions that only hold on a quiet machine show up. Only committed work is tested: clones take HEAD.
# Each run sets CI=true, as CI does, so the build is the deterministic one CI makes.
# Logs are kept in $TEST_REPEAT_LOGS (default: a new temporary directory), one per run.
set -euo pipefail
cd "$(dirname "$0")/.."

busy=0
if [ "${1:-}" = "--busy" ]; then
  busy=1
  shift
fi
runs="${1:-}"
if ! [[ "$runs" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: bash scripts/test-repeat.sh [--busy] N" >&2
  exit 2
fi

if ! git diff --quiet HEAD 2>/dev/null; then
  echo "note: uncommitted changes are not tested (each run clones HEAD $(git rev-parse --short HEAD))" >&2
fi

repo=$(pwd)
logs="${TEST_REPEAT_LOGS:-$(mktemp -d -t test-repeat.XXXXXX)}"
mkdir -p "$logs"
load_pids=()
clone=""

stop_load() {
  for pid in "${load_pids[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  load_pids=()
}
cleanup() {
  stop_load
  # An if, not "[ ] && rm": the trap's last status would become the script's, failing a run that was all green.
  if [ -n "$clone" ]; then
    rm -rf "$clone"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

failed_runs=0
for run in $(seq 1 "$runs"); do
  clone=$(mktemp -d -t test-repeat-clone.XXXXXX)
  git clone -q "$repo" "$clone"
  log="$logs/run-$run.log"
  if [ "$busy" = 1 ]; then
    for _ in $(seq 1 "$(nproc)"); do
      (exec yes >/dev/null) &
      load_pids+=("$!")
    done
  fi

  start=$(date +%s)
  set +e
  # CI=true, as CI sets it: Directory.Build.props then builds deterministically (source paths mapped to /_/).
  (cd "$clone" && CI=true bash scripts/test.sh) >"$log" 2>&1
  status=$?
  set -e
  stop_load
  rm -rf "$clone"
  clone=""

  summary=$(grep -E '^tests: ' "$log" | tail -1 || true)
  echo "run $run/$runs$([ "$busy" = 1 ] && echo ' (busy)'): ${summary:-no summary (the build failed?)} in $(( $(date +%s) - start )) s, load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?'); log $log"
  if [ "$status" -ne 0 ]; then
    failed_runs=$((failed_runs + 1))
    # The runner's line for each failed test ("  Failed Namespace.Class.Method [time]"), or the build's errors.
    grep -E '^\s+Failed [A-Za-z]' "$log" | sed -E 's/^\s+Failed /  failed: /' | sort -u || true
    grep -E ': error ' "$log" | sort -u | head -5 | sed 's/^/  /' || true
  fi
done

echo "$((runs - failed_runs)) of $runs runs green$([ "$busy" = 1 ] && echo ' (busy)')"
[ "$failed_runs" -eq 0 ]
