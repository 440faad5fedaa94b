namespace CacheSerializer.Enyim;

/// <summary>An outcome with the item's CAS token, as EnyimMemcachedCore's <c>ICasOperationResult</c>.</summary>
public interface ICasOperationResult : IOperationResult
{
    /// <summary>Gets or sets the item's CAS token; 0 when there is none.</summary>
    ulong Cas { get; set; }
}
