using CacheSerializer.Workloads.Models;

namespace CacheSerializer.Workloads.Peers;

/// <summary>Maps the workload types to the peers' model classes (MessagePack, MemoryPack) and back, exactly.</summary>
/// <remarks>
/// The benchmarks convert once, at setup, as they do for Google.Protobuf, so each peer measures its own serializer on its
/// own model; the tests convert both ways to prove both forms hold the same graph. Every member maps one to one (Guids,
/// instants with their kind, versions, null and empty lists alike): the peer models differ only in their attributes.
/// </remarks>
public static class PeerConvert
{
    /// <summary>Maps an <see cref="RpcMessage"/>.</summary>
    /// <param name="value">The value.</param>
    /// <returns>The peer model.</returns>
    public static RpcMessagePeer ToPeer(RpcMessage value)
    {
        ArgumentNullException.ThrowIfNull(value);
        return new RpcMessagePeer { RequestId = value.RequestId, Status = value.Status, Service = value.Service, Method = value.Method, Body = value.Body };
    }

    /// <summary>Maps an <see cref="RpcMessagePeer"/>.</summary>
    /// <param name="peer">The peer model.</param>
    /// <returns>The value.</returns>
    public static RpcMessage FromPeer(RpcMessagePeer peer)
    {
        ArgumentNullException.ThrowIfNull(peer);
        return new RpcMessage { RequestId = peer.RequestId, Status = peer.Status, Service = peer.Service, Method = peer.Method, Body = peer.Body };
    }

    /// <summary>Maps an <see cref="EightUInt64s"/>.</summary>
    /// <param name="value">The value.</param>
    /// <returns>The peer model.</returns>
    public static EightUInt64sPeer ToPeer(EightUInt64s value)
    {
        ArgumentNullException.ThrowIfNull(value);
        return new EightUInt64sPeer { A = value.A, B = value.B, C = value.C, D = value.D, E = value.E, F = value.F, G = value.G, H = value.H };
    }

    /// <summary>Maps an <see cref="EightUInt64sPeer"/>.</summary>
    /// <param name="peer">The peer model.</param>
    /// <returns>The value.</returns>
    public static EightUInt64s FromPeer(EightUInt64sPeer peer)
    {
        ArgumentNullException.ThrowIfNull(peer);
        return new EightUInt64s { A = peer.A, B = peer.B, C = peer.C, D = peer.D, E = peer.E, F = peer.F, G = peer.G, H = peer.H };
    }

    /// <summary>Maps a <see cref="RecordSet"/>.</summary>
    /// <param name="value">The value.</param>
    /// <returns>The peer model.</returns>
    public static RecordSetPeer ToPeer(RecordSet value)
    {
        ArgumentNullException.ThrowIfNull(value);
        return new RecordSetPeer
        {
            SchemaVersion = value.SchemaVersion,
            SourceId = value.SourceId,
            Sequence = value.Sequence,
            Records = value.Records.ConvertAll(r => new RecordPeer { Id = r.Id, Text = r.Text }),
        };
    }

    /// <summary>Maps a <see cref="RecordSetPeer"/>.</summary>
    /// <param name="peer">The peer model.</param>
    /// <returns>The value.</returns>
    public static RecordSet FromPeer(RecordSetPeer peer)
    {
        ArgumentNullException.ThrowIfNull(peer);
        return new RecordSet
        {
            SchemaVersion = peer.SchemaVersion,
            SourceId = peer.SourceId,
            Sequence = peer.Sequence,
            Records = peer.Records.ConvertAll(r => new Record { Id = r.Id, Text = r.Text }),
        };
    }

    /// <summary>Maps a <see cref="FolderCatalog"/>.</summary>
    /// <param name="value">The value.</param>
    /// <returns>The peer model.</returns>
    public static FolderCatalogPeer ToPeer(FolderCatalog value)
    {
        ArgumentNullException.ThrowIfNull(value);
        return new FolderCatalogPeer { SchemaVersion = value.SchemaVersion, Tenant = value.Tenant, Built = value.Built, Roots = value.Roots.ConvertAll(ToPeer) };
    }

    /// <summary>Maps a <see cref="FolderCatalogPeer"/>.</summary>
    /// <param name="peer">The peer model.</param>
    /// <returns>The value.</returns>
    public static FolderCatalog FromPeer(FolderCatalogPeer peer)
    {
        ArgumentNullException.ThrowIfNull(peer);
        return new FolderCatalog { SchemaVersion = peer.SchemaVersion, Tenant = peer.Tenant, Built = peer.Built, Roots = peer.Roots.ConvertAll(FromPeer) };
    }

    /// <summary>Maps a <see cref="UserFolderTree"/>.</summary>
    /// <param name="value">The value.</param>
    /// <returns>The peer model.</returns>
    public static UserFolderTreePeer ToPeer(UserFolderTree value)
    {
        ArgumentNullException.ThrowIfNull(value);
        return new UserFolderTreePeer
        {
            UserId = value.UserId,
            UserName = value.UserName,
            Loaded = value.Loaded,
            Entries = value.Entries.ConvertAll(e => new FolderEntryPeer
            {
                Id = e.Id,
                OwnerId = e.OwnerId,
                Name = e.Name,
                Path = e.Path,
                Created = e.Created,
                Modified = e.Modified,
                Kind = e.Kind,
                IsFavorite = e.IsFavorite,
                Size = e.Size,
                Tags = [.. e.Tags],
                Permissions = e.Permissions.ConvertAll(p => new PermissionPeer { UserId = p.UserId, Right = p.Right }),
            }),
        };
    }

    /// <summary>Maps a <see cref="UserFolderTreePeer"/>.</summary>
    /// <param name="peer">The peer model.</param>
    /// <returns>The value.</returns>
    public static UserFolderTree FromPeer(UserFolderTreePeer peer)
    {
        ArgumentNullException.ThrowIfNull(peer);
        return new UserFolderTree
        {
            UserId = peer.UserId,
            UserName = peer.UserName,
            Loaded = peer.Loaded,
            Entries = peer.Entries.ConvertAll(e => new FolderEntry
            {
                Id = e.Id,
                OwnerId = e.OwnerId,
                Name = e.Name,
                Path = e.Path,
                Created = e.Created,
                Modified = e.Modified,
                Kind = e.Kind,
                IsFavorite = e.IsFavorite,
                Size = e.Size,
                Tags = [.. e.Tags],
                Permissions = e.Permissions.ConvertAll(p => new Permission { UserId = p.UserId, Right = p.Right }),
            }),
        };
    }

    private static NodeBasePeer ToPeer(NodeBase node)
    {
        NodeBasePeer peer = node switch
        {
            FolderNode folder => new FolderNodePeer { Children = folder.Children?.ConvertAll(ToPeer), IsShared = folder.IsShared },
            DocumentNode document => new DocumentNodePeer
            {
                Length = document.Length,
                ContentType = document.ContentType,
                FormatVersion = document.FormatVersion,
                Revisions = document.Revisions?.ConvertAll(r => new RevisionPeer { Number = r.Number, Saved = r.Saved, Author = r.Author }),
            },
            _ => throw new ArgumentException($"No peer mapping for node type {node.GetType()}.", nameof(node)),
        };
        peer.Id = node.Id;
        peer.Name = node.Name;
        peer.Created = node.Created;
        peer.Labels = node.Labels is null ? null : [.. node.Labels];
        peer.Description = node.Description;
        return peer;
    }

    private static NodeBase FromPeer(NodeBasePeer peer)
    {
        NodeBase node = peer switch
        {
            FolderNodePeer folder => new FolderNode { Children = folder.Children?.ConvertAll(FromPeer), IsShared = folder.IsShared },
            DocumentNodePeer document => new DocumentNode
            {
                Length = document.Length,
                ContentType = document.ContentType,
                FormatVersion = document.FormatVersion,
                Revisions = document.Revisions?.ConvertAll(r => new Revision { Number = r.Number, Saved = r.Saved, Author = r.Author }),
            },
            _ => throw new ArgumentException($"No mapping back for peer node type {peer.GetType()}.", nameof(peer)),
        };
        node.Id = peer.Id;
        node.Name = peer.Name;
        node.Created = peer.Created;
        node.Labels = peer.Labels is null ? null : [.. peer.Labels];
        node.Description = peer.Description;
        return node;
    }
}
