namespace CacheSerializer.Enyim;

/// <summary>A store's outcome, as EnyimMemcachedCore's <c>IStoreOperationResult</c>.</summary>
public interface IStoreOperationResult : ICasOperationResult
{
}
