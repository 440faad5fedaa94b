using System.Buffers.Binary;
using System.Collections.Concurrent;
using System.Text;
using CacheSerializer.Memcached.Internal.Protocol;

namespace CacheSerializer.Memcached.Internal.Deploys;

/// <summary>
/// The format of the copies that keep two builds from evicting each other during a rolling deploy (docs/client.md,
/// "Rolling deploys"). A build that reads a key holding an item it cannot read (another contract of the type, a type it does not know) and
/// then fills the key with <c>AddAsync</c> stores its value beside the item, under the key's copy for the build
/// (<see cref="MemcachedKey.CopyFor"/>, on the same server), bound to the CAS token the read saw (<see cref="BuildCopies"/>); a later read that
/// finds the same item under the key reads the copy instead. Any delete or overwrite of the key changes or removes that
/// item, and so invalidates every copy bound to it, whichever build made it.
/// </summary>
/// <remarks>
/// A copy's payload is the bound CAS token (8 bytes LE), the copied item's flags (4 bytes LE) and its payload, under
/// flags <see cref="Flags"/> (docs/format.md, "Build copies"). The CAS bound is the one the reading get saw, never one
/// read when the fill stores: a fill that loaded its value before an update replaced the item then binds to the
/// replaced item and is never read.
/// </remarks>
internal static class CopyFormat
{
    /// <summary>The client flags of a copy: no transcoder reads them as a value.</summary>
    internal const uint Flags = 0xC57E;

    private const int HeaderLength = sizeof(ulong) + sizeof(uint);
    private static readonly ConcurrentDictionary<Type, uint> Builds = new();

    /// <summary>Returns the build of <paramref name="type"/>: the FNV-1a of its module's version id and its full name, so
    /// every web server of one build agrees, and two builds of the type (two compilations) differ.</summary>
    internal static uint BuildOf(Type type) => Builds.GetOrAdd(type, static t =>
    {
        byte[] name = Encoding.UTF8.GetBytes(t.FullName ?? t.Name);
        uint hash = Fnv1a.Hash(t.Module.ModuleVersionId.ToByteArray());
        return Fnv1a.Hash(name, hash);
    });

    /// <summary>Wraps <paramref name="item"/> as a copy bound to <paramref name="cas"/>.</summary>
    internal static CacheItem Wrap(ulong cas, CacheItem item)
    {
        byte[] payload = new byte[HeaderLength + item.Data.Count];
        BinaryPrimitives.WriteUInt64LittleEndian(payload, cas);
        BinaryPrimitives.WriteUInt32LittleEndian(payload.AsSpan(sizeof(ulong)), item.Flags);
        item.Data.AsSpan().CopyTo(payload.AsSpan(HeaderLength));
        return new CacheItem(Flags, new ArraySegment<byte>(payload));
    }

    /// <summary>Unwraps a copy if it is bound to <paramref name="cas"/>, the item its key holds now; false for a copy of
    /// an item since deleted or replaced, and for anything that is not a copy.</summary>
    internal static bool TryUnwrap(CacheItem copy, ulong cas, out CacheItem item)
    {
        ReadOnlySpan<byte> data = copy.Data.AsSpan();
        if (copy.Flags != Flags || data.Length < HeaderLength || BinaryPrimitives.ReadUInt64LittleEndian(data) != cas)
        {
            item = default;
            return false;
        }

        item = new CacheItem(BinaryPrimitives.ReadUInt32LittleEndian(data[sizeof(ulong)..]), copy.Data.Slice(HeaderLength));
        return true;
    }
}
