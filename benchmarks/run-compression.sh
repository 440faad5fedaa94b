#!/usr/bin/env bash
# The published compression run (docs/benchmarks.md, "Compression: bytes x CPU"): compress, decompress and both, of the
# records N = 32 / 1,024, folders and large object payloads, for Brotli and Deflate (Fastest), Zstandard 1 and 3, LZ4 fast
# and HC 9 (72 cases, about 12 minutes on a shared 2-core machine); then the bytes table, which needs no timing.
# Results: BenchmarkDotNet.Artifacts/compression/results and BenchmarkDotNet.Artifacts/compression/bytes.md.
set -euo pipefail
cd "$(dirname "$0")/.."
project=benchmarks/CacheSerializer.Benchmarks
dotnet run -c Release --project "$project" -- --filter '*.CompressionBenchmarks.*' \
  --launchCount 1 --warmupCount 3 --iterationCount 7 --iterationTime 200 --artifacts BenchmarkDotNet.Artifacts/compression
dotnet run -c Release --no-build --project "$project" -- compression > BenchmarkDotNet.Artifacts/compression/bytes.md
