namespace CacheSerializer.Enyim;

/// <summary>A remove's outcome, as EnyimMemcachedCore's <c>IRemoveOperationResult</c>.</summary>
public interface IRemoveOperationResult : IOperationResult
{
}
