#!/usr/bin/env bash
# Makes sure memcached is on PATH; with --tools, memcaslap (libmemcached-tools) too; with --redis, redis-server too
# (the client benchmark's StackExchange.Redis contender and the RedisServer launcher's tests).
# Installs from Debian's packages when missing: the tests, the benchmarks and the load test start real servers.
# Debian's redis-server package may start its own service on 6379; nothing here uses it (RedisServer starts
# redis-server processes of its own on free ports).
set -euo pipefail

want_tools=0
want_redis=0
for arg in "$@"; do
  case "$arg" in
    --tools) want_tools=1 ;;
    --redis) want_redis=1 ;;
    *) echo "usage: $0 [--tools] [--redis]" >&2; exit 2 ;;
  esac
done

missing=()
command -v memcached >/dev/null 2>&1 || missing+=(memcached)
if [ "$want_tools" = 1 ] && ! command -v memcaslap >/dev/null 2>&1; then
  missing+=(libmemcached-tools)
fi
if [ "$want_redis" = 1 ] && ! command -v redis-server >/dev/null 2>&1; then
  missing+=(redis-server)
fi
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "error: ${missing[*]} not found and apt-get is unavailable; install memcached 1.6.18 or later (and, if asked for, memcaslap and redis-server) and put them on PATH." >&2
  exit 1
fi

sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "Installing ${missing[*]} with apt-get..." >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
command -v memcached >/dev/null 2>&1
[ "$want_redis" = 0 ] || command -v redis-server >/dev/null 2>&1
