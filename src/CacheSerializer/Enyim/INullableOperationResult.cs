// Nullable-oblivious, as EnyimMemcachedCore's own interface (it has no annotations): a call site that compiled against
// it compiles here without new nullable warnings.
#nullable disable
#pragma warning disable RS0041 // oblivious on purpose (above)

namespace CacheSerializer.Enyim;

/// <summary>An outcome with a value, as EnyimMemcachedCore's <c>INullableOperationResult&lt;T&gt;</c>.</summary>
/// <typeparam name="T">The value's type.</typeparam>
public interface INullableOperationResult<T> : IOperationResult
{
    /// <summary>Gets a value indicating whether <see cref="Value"/> is not null.</summary>
    bool HasValue { get; }

    /// <summary>Gets or sets the value; the default of <typeparamref name="T"/> on a miss.</summary>
    T Value { get; set; }
}
