using CacheSerializer.Workloads.Internal;
using CacheSerializer.Workloads.Models;

namespace CacheSerializer.Workloads.Peers;

/// <summary>Maps the workload types to the peers' model classes (MessagePack, MemoryPack) and back, exactly.</summary>
/// <remarks>
/// The benchmarks convert once, at setup, as they do for Google.Protobuf, so each peer measures its own serializer on its
/// own model; the tests convert both ways to prove both forms hold the same graph. Every member maps one to one (Guids,
/// instants with their kind, versions, null and empty lists alike): the peer models differ only in their attributes, so
/// one rule (<see cref="PeerMapping"/>) maps every pair in both directions, and each overload here only names a pair.
/// </remarks>
public static class PeerConvert
{
    /// <summary>Maps an <see cref="RpcMessage"/> to its peer model.</summary>
    public static RpcMessagePeer ToPeer(RpcMessage value) => Map<RpcMessagePeer>(value);

    /// <summary>Maps an <see cref="RpcMessagePeer"/> back.</summary>
    public static RpcMessage FromPeer(RpcMessagePeer peer) => Map<RpcMessage>(peer);

    /// <summary>Maps an <see cref="EightUInt64s"/> to its peer model.</summary>
    public static EightUInt64sPeer ToPeer(EightUInt64s value) => Map<EightUInt64sPeer>(value);

    /// <summary>Maps an <see cref="EightUInt64sPeer"/> back.</summary>
    public static EightUInt64s FromPeer(EightUInt64sPeer peer) => Map<EightUInt64s>(peer);

    /// <summary>Maps a <see cref="RecordSet"/> to its peer model.</summary>
    public static RecordSetPeer ToPeer(RecordSet value) => Map<RecordSetPeer>(value);

    /// <summary>Maps a <see cref="RecordSetPeer"/> back.</summary>
    public static RecordSet FromPeer(RecordSetPeer peer) => Map<RecordSet>(peer);

    /// <summary>Maps a <see cref="FolderCatalog"/> to its peer model.</summary>
    public static FolderCatalogPeer ToPeer(FolderCatalog value) => Map<FolderCatalogPeer>(value);

    /// <summary>Maps a <see cref="FolderCatalogPeer"/> back.</summary>
    public static FolderCatalog FromPeer(FolderCatalogPeer peer) => Map<FolderCatalog>(peer);

    /// <summary>Maps a <see cref="UserFolderTree"/> to its peer model.</summary>
    public static UserFolderTreePeer ToPeer(UserFolderTree value) => Map<UserFolderTreePeer>(value);

    /// <summary>Maps a <see cref="UserFolderTreePeer"/> back.</summary>
    public static UserFolderTree FromPeer(UserFolderTreePeer peer) => Map<UserFolderTree>(peer);

    private static TTarget Map<TTarget>(object source)
        where TTarget : class
    {
        ArgumentNullException.ThrowIfNull(source);
        return PeerMapping.Map<TTarget>(source);
    }
}
