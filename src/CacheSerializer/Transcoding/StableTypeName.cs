using System.Text;

namespace CacheSerializer.Transcoding;

/// <summary>
/// The name an object payload carries when its type has no alias: namespace-qualified, with nested types joined by
/// '+' and generic arguments in brackets, and no assembly name or version, so it survives a rebuild, a version bump
/// and a move between assemblies. It is only ever a key into the transcoder's table of known types, never loaded.
/// </summary>
internal static class StableTypeName
{
    /// <summary>
    /// The 32-bit FNV-1a hash of a stable name's UTF-8 bytes: what a protobuf-net object's header carries (docs/format.md).
    /// Stable across processes, platforms and .NET versions (unlike string.GetHashCode, which is randomized per process).
    /// </summary>
    public static uint Hash(string name) => Fnv1a.Hash(Encoding.UTF8.GetBytes(name));

    public static string Of(Type type)
    {
        var builder = new StringBuilder();
        Append(builder, type);
        return builder.ToString();
    }

    private static void Append(StringBuilder builder, Type type)
    {
        if (type.IsArray)
        {
            Append(builder, type.GetElementType()!);
            builder.Append('[').Append(',', type.GetArrayRank() - 1).Append(']');
            return;
        }

        if (type.IsGenericType && !type.IsGenericTypeDefinition)
        {
            builder.Append(type.GetGenericTypeDefinition().FullName);
            builder.Append('[');
            Type[] arguments = type.GetGenericArguments();
            for (int i = 0; i < arguments.Length; i++)
            {
                if (i > 0)
                {
                    builder.Append(',');
                }

                Append(builder, arguments[i]);
            }

            builder.Append(']');
            return;
        }

        // FullName of a non-generic type carries no assembly; generic parameters (FullName null) never reach a payload.
        builder.Append(type.FullName ?? type.Name);
    }
}
