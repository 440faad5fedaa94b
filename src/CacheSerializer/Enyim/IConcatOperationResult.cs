namespace CacheSerializer.Enyim;

/// <summary>An append's or prepend's outcome, as EnyimMemcachedCore's <c>IConcatOperationResult</c>.</summary>
public interface IConcatOperationResult : ICasOperationResult
{
}
