using System.Buffers;

namespace CacheSerializer.Transcoding.ProtobufNet;

/// <summary>
/// The write-only stream protobuf-net writes a body into: one per thread, its array kept between calls up to
/// <see cref="KeptBytes"/> (larger ones come from and go back to <see cref="ArrayPool{T}.Shared"/>).
/// </summary>
internal sealed class PooledBodyWriter : Stream
{
    private const int KeptBytes = 64 * 1024;

    [ThreadStatic]
    private static PooledBodyWriter? t_cached;

    // _home is the thread's own array (grown up to KeptBytes); a body larger than that is written into a rented one.
    private byte[] _home = new byte[4096];
    private byte[] _array;
    private int _position;

    private PooledBodyWriter() => _array = _home;

    public int Written => _position;

    public ReadOnlySpan<byte> WrittenSpan => _array.AsSpan(0, _position);

    public override bool CanRead => false;

    public override bool CanSeek => false;

    public override bool CanWrite => true;

    public override long Length => _position;

    public override long Position
    {
        get => _position;
        set => throw new NotSupportedException();
    }

    /// <summary>Takes this thread's writer (a fresh one if a body is being written on it already), positioned after <paramref name="headroom"/> bytes.</summary>
    public static PooledBodyWriter Rent(int headroom)
    {
        PooledBodyWriter writer = t_cached ?? new PooledBodyWriter();
        t_cached = null;
        writer._position = headroom;
        return writer;
    }

    public void Return()
    {
        if (!ReferenceEquals(_array, _home))
        {
            ArrayPool<byte>.Shared.Return(_array);
            _array = _home;
        }

        t_cached = this;
    }

    public override void Write(byte[] buffer, int offset, int count) => Write(buffer.AsSpan(offset, count));

    public override void Write(ReadOnlySpan<byte> buffer)
    {
        Ensure(buffer.Length);
        buffer.CopyTo(_array.AsSpan(_position));
        _position += buffer.Length;
    }

    public override void WriteByte(byte value)
    {
        Ensure(1);
        _array[_position++] = value;
    }

    public override void Flush()
    {
    }

    public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();

    private void Ensure(int needed)
    {
        if (_array.Length - _position >= needed)
        {
            return;
        }

        int size = Math.Max(checked(_array.Length * 2), checked(_position + needed));
        byte[] grown = size <= KeptBytes ? new byte[size] : ArrayPool<byte>.Shared.Rent(size);
        _array.AsSpan(0, _position).CopyTo(grown);
        if (!ReferenceEquals(_array, _home))
        {
            ArrayPool<byte>.Shared.Return(_array);
        }

        if (size <= KeptBytes)
        {
            _home = grown;
        }

        _array = grown;
    }
}
