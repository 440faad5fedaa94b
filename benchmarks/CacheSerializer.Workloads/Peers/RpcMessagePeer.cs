using MemoryPack;
using MessagePack;

namespace CacheSerializer.Workloads.Peers;

/// <summary>The rpc message as MessagePack and MemoryPack users write it (<see cref="Models.RpcMessage"/>'s peer model).</summary>
[MessagePackObject]
[MemoryPackable]
public sealed partial class RpcMessagePeer : PeerModel<RpcMessagePeer>
{
    /// <summary>Gets or sets the request id.</summary>
    [Key(0)]
    public int RequestId { get; set; }

    /// <summary>Gets or sets the status code.</summary>
    [Key(1)]
    public int Status { get; set; }

    /// <summary>Gets or sets the service name.</summary>
    [Key(2)]
    public string Service { get; set; } = "";

    /// <summary>Gets or sets the method name.</summary>
    [Key(3)]
    public string Method { get; set; } = "";

    /// <summary>Gets or sets the body text.</summary>
    [Key(4)]
    public string Body { get; set; } = "";
}
