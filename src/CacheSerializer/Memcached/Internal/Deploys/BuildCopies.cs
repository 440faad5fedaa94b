using System.Buffers.Binary;
using System.Collections.Concurrent;
using System.Text;
using CacheSerializer.Memcached.Internal.Protocol;

namespace CacheSerializer.Memcached.Internal.Deploys;

/// <summary>
/// Copies that keep two builds from evicting each other during a rolling deploy (docs/client.md, "Rolling deploys"). A
/// build that reads a key holding an item it cannot read (another contract of the type, a type it does not know) and
/// then fills the key with <c>AddAsync</c> stores its value beside the item, under the key's copy for the build
/// (<see cref="MemcachedKey.CopyFor"/>, on the same server), bound to the CAS token the read saw; a later read that
/// finds the same item under the key reads the copy instead. Any delete or overwrite of the key changes or removes that
/// item, and so invalidates every copy bound to it, whichever build made it.
/// </summary>
/// <remarks>
/// A copy's payload is the bound CAS token (8 bytes LE), the copied item's flags (4 bytes LE) and its payload, under
/// flags <see cref="Flags"/> (docs/format.md, "Build copies"). The CAS bound is the one the reading get saw, never one
/// read when the fill stores: a fill that loaded its value before an update replaced the item then binds to the
/// replaced item and is never read.
/// </remarks>
internal sealed class BuildCopies
{
    /// <summary>The client flags of a copy: no transcoder reads them as a value.</summary>
    internal const uint Flags = 0xC57E;

    /// <summary>The most fills the client remembers at once; beyond it, it forgets them all (a copy then waits for the next miss).</summary>
    internal const int MaxPending = 100_000;

    private const int HeaderLength = sizeof(ulong) + sizeof(uint);
    private static readonly ConcurrentDictionary<Type, uint> Builds = new();
    private readonly ConcurrentDictionary<(string Key, Type Type), ulong> _pending = new();

    // About how many fills are remembered: ConcurrentDictionary.Count takes every lock of the dictionary, too much for
    // each read of another build's item during a deploy. Only the bound uses it, so an approximate count will do.
    private int _count;

    /// <summary>Returns the build of <paramref name="type"/>: the FNV-1a of its module's version id and its full name, so
    /// every web server of one build agrees, and two builds of the type (two compilations) differ.</summary>
    internal static uint BuildOf(Type type) => Builds.GetOrAdd(type, static t =>
    {
        byte[] name = Encoding.UTF8.GetBytes(t.FullName ?? t.Name);
        uint hash = Fnv1a.Hash(t.Module.ModuleVersionId.ToByteArray());
        return Fnv1a.Hash(name, hash);
    });

    /// <summary>Remembers that a read of <paramref name="key"/> as a <paramref name="type"/> found an item it could not read
    /// under CAS token <paramref name="cas"/>, so that the fill which follows is stored as a copy bound to it.</summary>
    internal void MissedOtherBuild(string key, Type type, ulong cas)
    {
        if (Volatile.Read(ref _count) >= MaxPending)
        {
            _pending.Clear();
            Volatile.Write(ref _count, 0);
        }

        if (_pending.TryAdd((key, type), cas))
        {
            Interlocked.Increment(ref _count);
        }
        else
        {
            _pending[(key, type)] = cas;
        }
    }

    /// <summary>Tells whether a read of <paramref name="key"/> as a <paramref name="type"/> found another build's item and
    /// no fill has taken it yet; without a remembered miss at all (contracts agree), without looking the key up. The count
    /// is approximate: a rare miss it lost (at its bound) only costs that fill its copy.</summary>
    internal bool Remembers(string key, Type type) => Volatile.Read(ref _count) != 0 && _pending.ContainsKey((key, type));

    /// <summary>Takes the CAS token a read of <paramref name="key"/> as a <paramref name="type"/> saw on another build's item.</summary>
    internal bool TryTakeMiss(string key, Type type, out ulong cas)
    {
        if (!_pending.TryRemove((key, type), out cas))
        {
            return false;
        }

        Interlocked.Decrement(ref _count);
        return true;
    }

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
