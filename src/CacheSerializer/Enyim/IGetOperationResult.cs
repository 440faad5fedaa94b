namespace CacheSerializer.Enyim;

/// <summary>A read's outcome (obsolete <c>GetAsync(key)</c>), as EnyimMemcachedCore's <c>IGetOperationResult</c>.</summary>
public interface IGetOperationResult : INullableOperationResult<object>, ICasOperationResult
{
}
