using System.ComponentModel;
using System.Reflection;
using System.Runtime.CompilerServices;

namespace CacheSerializer.Memcached.Internal.GetOrCreate;

/// <summary>Whether one instance of <typeparamref name="T"/> may be handed to several callers at once: HybridCache's
/// rule, so that the two behave alike. A string, a value type without references, or a sealed type marked
/// <c>[ImmutableObject(true)]</c> is shared; any other value gets a copy per caller.</summary>
/// <typeparam name="T">The value's type.</typeparam>
internal static class ImmutableType<T>
{
    /// <summary>Gets a value indicating whether instances of <typeparamref name="T"/> can be shared.</summary>
    internal static readonly bool Value =
        typeof(T) == typeof(string)
        || !RuntimeHelpers.IsReferenceOrContainsReferences<T>()
        || (typeof(T).IsSealed && typeof(T).GetCustomAttribute<ImmutableObjectAttribute>() is { Immutable: true });
}
