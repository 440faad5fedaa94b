using System.Runtime.CompilerServices;
using System.Text;
using CacheSerializer.Workloads.Contenders.Internal;

namespace CacheSerializer.Workloads.Contenders;

/// <summary>
/// The floor: a copy of the payload bytes and nothing else. Byte arrays are copied, primitives are their
/// <see cref="BitConverter"/> bytes, strings their UTF-8 bytes (DefaultTranscoder's flags, so the bytes match the native path).
/// </summary>
/// <remarks>
/// For object workloads the benchmarks hand it the bytes a perfect encoder would have written (the workload's protobuf
/// encoding), so it measures the copy RAMCloud quoted next to protobuf (0.34 us against 4.24 us). It cannot encode objects.
/// </remarks>
public sealed class PlainCopyTranscoder : ITranscoder
{
    /// <inheritdoc/>
    public CacheItem Serialize(object? value) => value switch
    {
        byte[] bytes => new CacheItem(EnyimPrimitives.RawFlag, new ArraySegment<byte>(bytes.AsSpan().ToArray())),
        string text => new CacheItem(0x0112, new ArraySegment<byte>(Encoding.UTF8.GetBytes(text))),
        int number => new CacheItem(0x0109, new ArraySegment<byte>(BitConverter.GetBytes(number))),
        long number => new CacheItem(0x010B, new ArraySegment<byte>(BitConverter.GetBytes(number))),
        double number => new CacheItem(0x010E, new ArraySegment<byte>(BitConverter.GetBytes(number))),
        DateTime time => new CacheItem(0x0110, new ArraySegment<byte>(BitConverter.GetBytes(time.ToBinary()))),
        _ => throw new CacheSerializerException($"The plain copy stores bytes and a few primitives, not a {value?.GetType().ToString() ?? "null"}."),
    };

    /// <inheritdoc/>
    public object? Deserialize(CacheItem item) => item.Flags switch
    {
        EnyimPrimitives.RawFlag => Deserialize<byte[]>(item),
        0x0112 => Deserialize<string>(item),
        0x0109 => Deserialize<int>(item),
        0x010B => Deserialize<long>(item),
        0x010E => Deserialize<double>(item),
        0x0110 => Deserialize<DateTime>(item),
        _ => throw new CacheSerializerException($"The plain copy does not read {item}."),
    };

    /// <inheritdoc/>
    public T? Deserialize<T>(CacheItem item)
    {
        ReadOnlySpan<byte> data = item.Data.AsSpan();
        try
        {
            // Each test is a constant per T, so the JIT keeps one branch and Unsafe.As avoids boxing: a true floor.
            if (typeof(T) == typeof(int))
            {
                int value = BitConverter.ToInt32(data);
                return Unsafe.As<int, T>(ref value);
            }

            if (typeof(T) == typeof(long))
            {
                long value = BitConverter.ToInt64(data);
                return Unsafe.As<long, T>(ref value);
            }

            if (typeof(T) == typeof(double))
            {
                double value = BitConverter.ToDouble(data);
                return Unsafe.As<double, T>(ref value);
            }

            if (typeof(T) == typeof(DateTime))
            {
                var value = DateTime.FromBinary(BitConverter.ToInt64(data));
                return Unsafe.As<DateTime, T>(ref value);
            }
        }
        catch (ArgumentOutOfRangeException ex)
        {
            throw new CacheSerializerException($"The plain copy could not read {item} as {typeof(T)}.", ex);
        }

        if (typeof(T) == typeof(byte[]))
        {
            return (T)(object)data.ToArray();
        }

        if (typeof(T) == typeof(string))
        {
            return (T)(object)Encoding.UTF8.GetString(data);
        }

        throw new CacheSerializerException($"The plain copy reads bytes and a few primitives, not a {typeof(T)}.");
    }
}
