#!/usr/bin/env bash
# The published transcoder run (docs/benchmarks.md, "Transcoders: item size and CPU against the alternatives"):
#  1. object workloads: every contender's round trip (16 x 7 = 112 cases), and serialize/deserialize for BSON, the
#     peers (MessagePack, MemoryPack, raw protobuf-net) and this transcoder plain and with LZ4 (84 cases): about 20
#     minutes on a shared 2-core machine;
#  2. with --native, also the native path: Int32, DateTime, String40, Bytes1K through BSON (DefaultTranscoder), PlainCopy
#     and this transcoder, all three operations (36 cases, about 5 minutes).
# Results: BenchmarkDotNet.Artifacts/transcoders-{objects,native}/results.
set -euo pipefail
cd "$(dirname "$0")/.."
job=(--launchCount 1 --warmupCount 3 --iterationCount 5 --iterationTime 250)
project=benchmarks/CacheSerializer.Benchmarks

filters=('*.RoundTripBenchmarks.*')
for method in Bson MessagePack MemoryPack ProtobufNet ThisTranscoder ThisTranscoderLz4; do
  filters+=("*.SerializeBenchmarks.$method" "*.DeserializeBenchmarks.$method")
done
CACHESERIALIZER_BENCH_WORKLOADS=RpcMessage,EightUInt64s,Records1,Records32,Records1024,Folders,LargeObject \
  dotnet run -c Release --project "$project" -- --filter "${filters[@]}" "${job[@]}" \
  --artifacts BenchmarkDotNet.Artifacts/transcoders-objects

if [ "${1:-}" = "--native" ]; then
  filters=()
  for method in Bson PlainCopy ThisTranscoder; do
    filters+=("*.SerializeBenchmarks.$method" "*.DeserializeBenchmarks.$method" "*.RoundTripBenchmarks.$method")
  done
  CACHESERIALIZER_BENCH_WORKLOADS=Int32,DateTime,String40,Bytes1K \
    dotnet run -c Release --project "$project" -- --filter "${filters[@]}" "${job[@]}" \
    --artifacts BenchmarkDotNet.Artifacts/transcoders-native
fi
