#!/usr/bin/env bash
# The published object-path run (docs/benchmarks.md, "Object path: the transcoder against raw protobuf-net"): serialize and
# deserialize of the rpc message, records N = 1/32/1024, folders and the large object, through ProtobufTranscoder and
# through protobuf-net directly on the same model (24 cases, about 10 minutes on a shared 2-core machine).
# Results: BenchmarkDotNet.Artifacts/object-path/results.
set -euo pipefail
cd "$(dirname "$0")/.."
dotnet run -c Release --project benchmarks/CacheSerializer.Benchmarks -- --filter '*.ObjectPathBenchmarks.*' \
  --launchCount 1 --warmupCount 5 --iterationCount 15 --artifacts BenchmarkDotNet.Artifacts/object-path
