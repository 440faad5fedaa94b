#!/usr/bin/env bash
# Makes sure memcached (and, with --tools, memcaslap from libmemcached-tools) is on PATH.
# Installs from Debian's packages when missing: the tests and the load test start real servers.
set -euo pipefail

want_tools=0
[ "${1:-}" = "--tools" ] && want_tools=1

missing=()
command -v memcached >/dev/null 2>&1 || missing+=(memcached)
if [ "$want_tools" = 1 ] && ! command -v memcaslap >/dev/null 2>&1; then
  missing+=(libmemcached-tools)
fi
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "error: ${missing[*]} not found and apt-get is unavailable; install memcached 1.6.18 or later and put it on PATH." >&2
  exit 1
fi

sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "Installing ${missing[*]} with apt-get..." >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
command -v memcached >/dev/null 2>&1
