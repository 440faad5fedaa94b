using System.Text.Json.Serialization;
using CacheSerializer.Workloads.Models;

namespace CacheSerializer.Workloads.Contenders;

/// <summary>System.Text.Json's source-generated metadata for every workload type, with the default (Pascal-case) names.</summary>
[JsonSerializable(typeof(RpcMessage))]
[JsonSerializable(typeof(EightUInt64s))]
[JsonSerializable(typeof(RecordSet))]
[JsonSerializable(typeof(FolderCatalog))]
[JsonSerializable(typeof(UserFolderTree))]
[JsonSerializable(typeof(int))]
[JsonSerializable(typeof(long))]
[JsonSerializable(typeof(double))]
[JsonSerializable(typeof(DateTime))]
[JsonSerializable(typeof(string))]
[JsonSerializable(typeof(byte[]))]
public sealed partial class WorkloadJsonContext : JsonSerializerContext;
