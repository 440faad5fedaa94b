using System.Reflection;

namespace CacheSerializer.Tests.Transcoding;

internal static class TranscoderTestHelpers
{
    private static readonly MethodInfo GenericDeserialize = typeof(ProtobufTranscoder).GetMethods()
        .Single(method => method.Name == nameof(ProtobufTranscoder.Deserialize) && method.IsGenericMethodDefinition);

    /// <summary>Calls <c>Deserialize&lt;T&gt;</c> with a T known only at run time.</summary>
    public static object? DeserializeAs(this ProtobufTranscoder transcoder, Type type, CacheItem item)
    {
        try
        {
            return GenericDeserialize.MakeGenericMethod(type).Invoke(transcoder, [item]);
        }
        catch (TargetInvocationException e) when (e.InnerException is not null)
        {
            throw e.InnerException;
        }
    }

    public static CacheItem Item(uint flags, params byte[] payload) => new(flags, new ArraySegment<byte>(payload));

    public static byte[] Bytes(this CacheItem item) => item.Data.AsSpan().ToArray();
}
