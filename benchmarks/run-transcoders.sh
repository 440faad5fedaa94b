#!/usr/bin/env bash
# The published transcoder run (docs/benchmarks.md, "Transcoders: item size and CPU against the alternatives"):
#  1. object workloads: every contender's round trip, and serialize/deserialize for this transcoder (plain, Brotli,
#     Aliases) against BSON, Google.Protobuf and BinaryFormatter (154 cases);
#  2. the native path: Int32, DateTime, String40, Bytes1K through BSON (DefaultTranscoder), PlainCopy and this
#     transcoder, all three operations (36 cases).
# About 22 minutes on a shared 2-core machine. Results: BenchmarkDotNet.Artifacts/transcoders-{objects,native}/results.
set -euo pipefail
cd "$(dirname "$0")/.."
job=(--launchCount 1 --warmupCount 3 --iterationCount 5 --iterationTime 250)
project=benchmarks/CacheSerializer.Benchmarks

filters=('*.RoundTripBenchmarks.*')
for method in Bson BinaryFormatter GoogleProtobuf MessagePack MessagePackLz4 MemoryPack ProtobufNet ThisTranscoder ThisTranscoderBrotli ThisTranscoderLz4 ThisTranscoderZstd ThisTranscoderAliases; do
  filters+=("*.SerializeBenchmarks.$method" "*.DeserializeBenchmarks.$method")
done
CACHESERIALIZER_BENCH_WORKLOADS=RpcMessage,EightUInt64s,Records1,Records32,Records1024,Folders,LargeObject \
  dotnet run -c Release --project "$project" -- --filter "${filters[@]}" "${job[@]}" \
  --artifacts BenchmarkDotNet.Artifacts/transcoders-objects

filters=()
for method in Bson PlainCopy ThisTranscoder; do
  filters+=("*.SerializeBenchmarks.$method" "*.DeserializeBenchmarks.$method" "*.RoundTripBenchmarks.$method")
done
CACHESERIALIZER_BENCH_WORKLOADS=Int32,DateTime,String40,Bytes1K \
  dotnet run -c Release --project "$project" -- --filter "${filters[@]}" "${job[@]}" \
  --artifacts BenchmarkDotNet.Artifacts/transcoders-native
