namespace CacheSerializer.Workloads.Contenders.Internal;

/// <summary>The typed read of contenders whose payload carries its own type.</summary>
internal static class Cast
{
    /// <summary>Returns <paramref name="value"/> as a <typeparamref name="T"/>, or the package's error naming both types.</summary>
    public static T? To<T>(object? value, CacheItem item, string contender) => value switch
    {
        null => default,
        T typed => typed,
        _ => throw new CacheSerializerException($"{contender} read a {value.GetType()} from {item}, not a {typeof(T)}."),
    };
}
