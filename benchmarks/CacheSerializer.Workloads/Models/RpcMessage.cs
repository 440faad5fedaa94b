using System.Runtime.Serialization;

namespace CacheSerializer.Workloads.Models;

/// <summary>The "rpc message" workload: two ints and three strings, about 100 bytes as protobuf.</summary>
/// <remarks>The message RAMCloud measured protobuf and Thrift on (2010): small, flat, mostly text.</remarks>
[Serializable]
[DataContract]
public sealed class RpcMessage : IEquatable<RpcMessage>
{
    /// <summary>Gets or sets the request id.</summary>
    [DataMember(Order = 1)]
    public int RequestId { get; set; }

    /// <summary>Gets or sets the status code.</summary>
    [DataMember(Order = 2)]
    public int Status { get; set; }

    /// <summary>Gets or sets the service name.</summary>
    [DataMember(Order = 3)]
    public string Service { get; set; } = "";

    /// <summary>Gets or sets the method name.</summary>
    [DataMember(Order = 4)]
    public string Method { get; set; } = "";

    /// <summary>Gets or sets the body text.</summary>
    [DataMember(Order = 5)]
    public string Body { get; set; } = "";

    /// <inheritdoc/>
    public bool Equals(RpcMessage? other) =>
        other is not null && RequestId == other.RequestId && Status == other.Status &&
        Service == other.Service && Method == other.Method && Body == other.Body;

    /// <inheritdoc/>
    public override bool Equals(object? obj) => Equals(obj as RpcMessage);

    /// <inheritdoc/>
    public override int GetHashCode() => HashCode.Combine(RequestId, Status, Service, Method, Body);
}
