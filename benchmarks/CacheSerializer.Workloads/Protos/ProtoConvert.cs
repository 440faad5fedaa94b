using CacheSerializer.Workloads.Models;
using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;

namespace CacheSerializer.Workloads.Protos;

/// <summary>Maps the workload types to their Google.Protobuf generated messages and back, exactly.</summary>
/// <remarks>
/// The benchmarks convert once, at setup, so the Google.Protobuf contender measures the generated code alone (the ceiling);
/// the tests convert both ways to prove the two forms hold the same graph. Instants are UTC (<see cref="Timestamp"/> only
/// holds UTC), Guids are their 16 <see cref="Guid.ToByteArray()"/> bytes, versions their <see cref="Version.ToString()"/>.
/// </remarks>
public static class ProtoConvert
{
    /// <summary>Maps an <see cref="RpcMessage"/>.</summary>
    /// <param name="value">The value.</param>
    /// <returns>The message.</returns>
    public static RpcMessagePb ToMessage(RpcMessage value)
    {
        ArgumentNullException.ThrowIfNull(value);
        return new RpcMessagePb { RequestId = value.RequestId, Status = value.Status, Service = value.Service, Method = value.Method, Body = value.Body };
    }

    /// <summary>Maps an <see cref="RpcMessagePb"/>.</summary>
    /// <param name="message">The message.</param>
    /// <returns>The value.</returns>
    public static RpcMessage FromMessage(RpcMessagePb message)
    {
        ArgumentNullException.ThrowIfNull(message);
        return new RpcMessage { RequestId = message.RequestId, Status = message.Status, Service = message.Service, Method = message.Method, Body = message.Body };
    }

    /// <summary>Maps an <see cref="EightUInt64s"/>.</summary>
    /// <param name="value">The value.</param>
    /// <returns>The message.</returns>
    public static EightUInt64sPb ToMessage(EightUInt64s value)
    {
        ArgumentNullException.ThrowIfNull(value);
        return new EightUInt64sPb { A = value.A, B = value.B, C = value.C, D = value.D, E = value.E, F = value.F, G = value.G, H = value.H };
    }

    /// <summary>Maps an <see cref="EightUInt64sPb"/>.</summary>
    /// <param name="message">The message.</param>
    /// <returns>The value.</returns>
    public static EightUInt64s FromMessage(EightUInt64sPb message)
    {
        ArgumentNullException.ThrowIfNull(message);
        return new EightUInt64s { A = message.A, B = message.B, C = message.C, D = message.D, E = message.E, F = message.F, G = message.G, H = message.H };
    }

    /// <summary>Maps a <see cref="RecordSet"/>.</summary>
    /// <param name="value">The value.</param>
    /// <returns>The message.</returns>
    public static RecordSetPb ToMessage(RecordSet value)
    {
        ArgumentNullException.ThrowIfNull(value);
        var message = new RecordSetPb { SchemaVersion = value.SchemaVersion, SourceId = value.SourceId, Sequence = value.Sequence };
        foreach (Record record in value.Records)
        {
            message.Records.Add(new RecordPb { Id = record.Id, Text = record.Text });
        }

        return message;
    }

    /// <summary>Maps a <see cref="RecordSetPb"/>.</summary>
    /// <param name="message">The message.</param>
    /// <returns>The value.</returns>
    public static RecordSet FromMessage(RecordSetPb message)
    {
        ArgumentNullException.ThrowIfNull(message);
        var records = new List<Record>(message.Records.Count);
        foreach (RecordPb record in message.Records)
        {
            records.Add(new Record { Id = record.Id, Text = record.Text });
        }

        return new RecordSet { SchemaVersion = message.SchemaVersion, SourceId = message.SourceId, Sequence = message.Sequence, Records = records };
    }

    /// <summary>Maps a <see cref="FolderCatalog"/>.</summary>
    /// <param name="value">The value.</param>
    /// <returns>The message.</returns>
    public static FolderCatalogPb ToMessage(FolderCatalog value)
    {
        ArgumentNullException.ThrowIfNull(value);
        var message = new FolderCatalogPb { SchemaVersion = value.SchemaVersion.ToString(), Tenant = value.Tenant, Built = Timestamp.FromDateTime(value.Built) };
        message.Roots.AddRange(value.Roots.Select(ToMessage));
        return message;
    }

    /// <summary>Maps a <see cref="FolderCatalogPb"/>.</summary>
    /// <param name="message">The message.</param>
    /// <returns>The value.</returns>
    public static FolderCatalog FromMessage(FolderCatalogPb message)
    {
        ArgumentNullException.ThrowIfNull(message);
        return new FolderCatalog
        {
            SchemaVersion = Version.Parse(message.SchemaVersion),
            Tenant = message.Tenant,
            Built = message.Built.ToDateTime(),
            Roots = message.Roots.Select(FromMessage).ToList(),
        };
    }

    /// <summary>Maps a <see cref="UserFolderTree"/>.</summary>
    /// <param name="value">The value.</param>
    /// <returns>The message.</returns>
    public static UserFolderTreePb ToMessage(UserFolderTree value)
    {
        ArgumentNullException.ThrowIfNull(value);
        var message = new UserFolderTreePb { UserId = value.UserId, UserName = value.UserName, Loaded = Timestamp.FromDateTime(value.Loaded) };
        foreach (FolderEntry entry in value.Entries)
        {
            var pb = new FolderEntryPb
            {
                Id = ByteString.CopyFrom(entry.Id.ToByteArray()),
                OwnerId = entry.OwnerId,
                Name = entry.Name,
                Path = entry.Path,
                Created = Timestamp.FromDateTime(entry.Created),
                Modified = Timestamp.FromDateTime(entry.Modified),
                Kind = (EntryKindPb)entry.Kind,
                IsFavorite = entry.IsFavorite,
                Size = entry.Size,
            };
            pb.Tags.AddRange(entry.Tags);
            foreach (Permission permission in entry.Permissions)
            {
                pb.Permissions.Add(new PermissionPb { UserId = permission.UserId, Right = (AccessRightPb)permission.Right });
            }

            message.Entries.Add(pb);
        }

        return message;
    }

    /// <summary>Maps a <see cref="UserFolderTreePb"/>.</summary>
    /// <param name="message">The message.</param>
    /// <returns>The value.</returns>
    public static UserFolderTree FromMessage(UserFolderTreePb message)
    {
        ArgumentNullException.ThrowIfNull(message);
        var entries = new List<FolderEntry>(message.Entries.Count);
        foreach (FolderEntryPb pb in message.Entries)
        {
            entries.Add(new FolderEntry
            {
                Id = new Guid(pb.Id.Span),
                OwnerId = pb.OwnerId,
                Name = pb.Name,
                Path = pb.Path,
                Created = pb.Created.ToDateTime(),
                Modified = pb.Modified.ToDateTime(),
                Kind = (EntryKind)pb.Kind,
                IsFavorite = pb.IsFavorite,
                Size = pb.Size,
                Tags = [.. pb.Tags],
                Permissions = pb.Permissions.Select(p => new Permission { UserId = p.UserId, Right = (AccessRight)p.Right }).ToList(),
            });
        }

        return new UserFolderTree { UserId = message.UserId, UserName = message.UserName, Loaded = message.Loaded.ToDateTime(), Entries = entries };
    }

    private static NodePb ToMessage(NodeBase node)
    {
        var message = new NodePb
        {
            Id = ByteString.CopyFrom(node.Id.ToByteArray()),
            Name = node.Name,
            Created = Timestamp.FromDateTime(node.Created),
            LabelsNull = node.Labels is null,
        };
        if (node.Labels is not null)
        {
            message.Labels.AddRange(node.Labels);
        }

        if (node.Description is not null)
        {
            message.Description = node.Description;
        }

        switch (node)
        {
            case FolderNode folder:
                message.Folder = new FolderNodePb { ChildrenNull = folder.Children is null, IsShared = folder.IsShared };
                if (folder.Children is not null)
                {
                    message.Folder.Children.AddRange(folder.Children.Select(ToMessage));
                }

                break;
            case DocumentNode document:
                message.Document = new DocumentNodePb { Length = document.Length, ContentType = document.ContentType, RevisionsNull = document.Revisions is null };
                if (document.FormatVersion is not null)
                {
                    message.Document.FormatVersion = document.FormatVersion.ToString();
                }

                if (document.Revisions is not null)
                {
                    foreach (Revision revision in document.Revisions)
                    {
                        message.Document.Revisions.Add(new RevisionPb { Number = revision.Number, Saved = Timestamp.FromDateTime(revision.Saved), Author = revision.Author });
                    }
                }

                break;
            default:
                throw new ArgumentException($"No protobuf mapping for node type {node.GetType()}.", nameof(node));
        }

        return message;
    }

    private static NodeBase FromMessage(NodePb message)
    {
        NodeBase node;
        switch (message.SubtypeCase)
        {
            case NodePb.SubtypeOneofCase.Folder:
                FolderNodePb folder = message.Folder;
                node = new FolderNode
                {
                    Children = folder.ChildrenNull ? null : folder.Children.Select(FromMessage).ToList(),
                    IsShared = folder.IsShared,
                };
                break;
            case NodePb.SubtypeOneofCase.Document:
                DocumentNodePb document = message.Document;
                node = new DocumentNode
                {
                    Length = document.Length,
                    ContentType = document.ContentType,
                    FormatVersion = document.HasFormatVersion ? Version.Parse(document.FormatVersion) : null,
                    Revisions = document.RevisionsNull
                        ? null
                        : document.Revisions.Select(r => new Revision { Number = r.Number, Saved = r.Saved.ToDateTime(), Author = r.Author }).ToList(),
                };
                break;
            default:
                throw new InvalidDataException("A NodePb names neither a folder nor a document.");
        }

        node.Id = new Guid(message.Id.Span);
        node.Name = message.Name;
        node.Created = message.Created.ToDateTime();
        node.Labels = message.LabelsNull ? null : [.. message.Labels];
        node.Description = message.HasDescription ? message.Description : null;
        return node;
    }
}
