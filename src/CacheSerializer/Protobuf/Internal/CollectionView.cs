using System.Buffers;
using System.Runtime.InteropServices;

namespace CacheSerializer.Protobuf.Internal;

/// <summary>Views any supported collection as a span without allocating (lists and arrays directly, others via the pool).</summary>
internal static class CollectionView
{
    public static ReadOnlySpan<T> AsSpan<T>(IEnumerable<T> collection, ref T[]? rented)
    {
        switch (collection)
        {
            case T[] array:
                return array;
            case List<T> list:
                return CollectionsMarshal.AsSpan(list);
            case ICollection<T> generic:
                rented = ArrayPool<T>.Shared.Rent(generic.Count);
                generic.CopyTo(rented, 0);
                return rented.AsSpan(0, generic.Count);
            default:
                var copy = new List<T>(collection);
                return CollectionsMarshal.AsSpan(copy);
        }
    }

    public static void Return<T>(T[]? rented)
    {
        if (rented is not null)
        {
            ArrayPool<T>.Shared.Return(rented, clearArray: System.Runtime.CompilerServices.RuntimeHelpers.IsReferenceOrContainsReferences<T>());
        }
    }
}
