namespace CacheSerializer.Enyim;

/// <summary>An increment's or decrement's outcome, as EnyimMemcachedCore's <c>IMutateOperationResult</c>.</summary>
public interface IMutateOperationResult : ICasOperationResult
{
    /// <summary>Gets or sets the counter's new value.</summary>
    ulong Value { get; set; }
}
