// Nullable-oblivious, as EnyimMemcachedCore's own interface (it has no annotations): a call site that compiled against
// it compiles here without new nullable warnings.
#nullable disable
#pragma warning disable RS0041 // oblivious on purpose (above)

namespace CacheSerializer.Enyim;

/// <summary>A result with the item's CAS token, as EnyimMemcachedCore's <c>CasResult&lt;T&gt;</c>.</summary>
/// <typeparam name="T">The result's type.</typeparam>
public struct CasResult<T>
{
    /// <summary>Gets or sets the result (the value read, whether the store happened, the counter's value).</summary>
    public T Result { get; set; }

    /// <summary>Gets or sets the item's CAS token (after a store, the new one).</summary>
    public ulong Cas { get; set; }

    /// <summary>Gets or sets the status code EnyimMemcachedCore's binary protocol gave (0 success, 1 not found, 2 exists,
    /// 5 not stored; -1 when nothing was sent); 0 where it sets none.</summary>
    public int StatusCode { get; set; }
}
