using System.Buffers;
using System.Buffers.Binary;

namespace CacheSerializer.Tests.Transcoding;

// Application codecs (CacheCodec<T>) the transcoder tests register, as an application would write them.

public readonly record struct Point(int X, int Y);

/// <summary>An application codec: two little-endian ints.</summary>
public sealed class PointCodec(uint flags = 0xC620) : CacheCodec<Point>(flags)
{
    public override void Write(Point value, IBufferWriter<byte> output)
    {
        Span<byte> span = output.GetSpan(8);
        BinaryPrimitives.WriteInt32LittleEndian(span, value.X);
        BinaryPrimitives.WriteInt32LittleEndian(span[4..], value.Y);
        output.Advance(8);
    }

    public override Point Read(ReadOnlySpan<byte> payload) =>
        payload.Length == 8
            ? new Point(BinaryPrimitives.ReadInt32LittleEndian(payload), BinaryPrimitives.ReadInt32LittleEndian(payload[4..]))
            : throw new FormatException($"a Point is 8 bytes, not {payload.Length}");
}

/// <summary>An application codec that takes over a native type: ints as decimal text.</summary>
public sealed class IntAsTextCodec() : CacheCodec<int>(0xC67F)
{
    public override void Write(int value, IBufferWriter<byte> output)
    {
        int written = System.Text.Encoding.ASCII.GetBytes(value.ToString(System.Globalization.CultureInfo.InvariantCulture), output.GetSpan(11));
        output.Advance(written);
    }

    public override int Read(ReadOnlySpan<byte> payload) => int.Parse(payload, provider: System.Globalization.CultureInfo.InvariantCulture);
}

/// <summary>An application codec for a Google.Protobuf message type: only its name, as UTF-8.</summary>
public sealed class PersonAsNameCodec() : CacheCodec<Messages.Person>(0xC621)
{
    public override void Write(Messages.Person value, IBufferWriter<byte> output) => System.Text.EncodingExtensions.GetBytes(System.Text.Encoding.UTF8, value.Name, output);

    public override Messages.Person Read(ReadOnlySpan<byte> payload) => new() { Name = System.Text.Encoding.UTF8.GetString(payload) };
}
