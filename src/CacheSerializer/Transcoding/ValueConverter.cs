namespace CacheSerializer.Transcoding;

/// <summary>Turns what a reader returned into the caller's <c>T</c>: nullable forms, enums, byte segments; anything else is a wrong type.</summary>
internal static class ValueConverter
{
    public static T? To<T>(object? value, uint flags)
    {
        if (value is T typed)
        {
            return typed;
        }

        if (value is null)
        {
            // null fits a reference type or a Nullable<>; a plain value type would silently turn it into 0/false.
            return default(T) is null ? default : ThrowHelper.ThrowNullNotAllowed<T>(flags);
        }

        Type target = Nullable.GetUnderlyingType(typeof(T)) ?? typeof(T);

        // Enums are stored as their underlying integer (DefaultTranscoder reads them as that); only the same
        // underlying type converts back, so a value never changes by narrowing or sign.
        if (target.IsEnum && value.GetType() == Enum.GetUnderlyingType(target))
        {
            return (T)Enum.ToObject(target, value);
        }

        if (target == typeof(ArraySegment<byte>) && value is byte[] bytes)
        {
            return (T)(object)new ArraySegment<byte>(bytes);
        }

        return ThrowHelper.ThrowWrongType<T>(flags, value.GetType());
    }
}
