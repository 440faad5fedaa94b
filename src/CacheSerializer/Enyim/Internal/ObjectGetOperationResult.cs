namespace CacheSerializer.Enyim.Internal;

/// <summary>A read's outcome as an object, for the obsolete <c>GetAsync(key)</c>.</summary>
internal sealed class ObjectGetOperationResult : GetOperationResult<object>, IGetOperationResult
{
}
