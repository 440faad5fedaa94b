using CacheSerializer.Transcoding.Codecs;

namespace CacheSerializer.Transcoding;

/// <summary>
/// The cached outcome for a type no codec stores: every Serialize of it throws at once, without running the chain
/// again. A fresh exception each time, so concurrent callers never share (and rewrite) one stack trace.
/// </summary>
internal sealed class UnstorableWriter : IValueWriter
{
    private readonly TranscoderException _reason;

    public UnstorableWriter(TranscoderException reason) => _reason = reason;

    public uint Flags => 0;

    public bool Compressible => false;

    /// <summary>Gets why the type cannot be stored.</summary>
    public string Reason => _reason.Message;

    public ArraySegment<byte> Write(object value) => throw CreateException();

    /// <summary>Creates the exception a Serialize of the type throws.</summary>
    public TranscoderException CreateException() => new(_reason.Message, TranscoderErrorKind.Unstorable, null, _reason.DataType, _reason.InnerException);
}
