namespace CacheSerializer.Enyim;

/// <summary>A read's outcome, as EnyimMemcachedCore's <c>IGetOperationResult&lt;T&gt;</c>: <see cref="IOperationResult.Success"/>
/// on a hit, with the value and its CAS token.</summary>
/// <typeparam name="T">The value's type.</typeparam>
public interface IGetOperationResult<T> : INullableOperationResult<T>, ICasOperationResult
{
}
