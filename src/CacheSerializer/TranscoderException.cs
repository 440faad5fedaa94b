namespace CacheSerializer;

/// <summary>
/// The exception <see cref="ProtobufTranscoder"/> throws: a value it cannot store, an item it cannot read (malformed,
/// truncated, of an unknown or refused type), or an item of another type than the caller asked for.
/// </summary>
/// <remarks>
/// <see cref="Kind"/> says which: <see cref="TranscoderErrorKind.Unstorable"/> at Serialize, the others at Deserialize. The
/// cause, when there is one (a codec, the foreign-item reader, BinaryFormatter), is the <see cref="Exception.InnerException"/>.
/// </remarks>
public class TranscoderException : CacheSerializerException
{
    /// <summary>Creates an exception with no message.</summary>
    public TranscoderException()
    {
    }

    /// <summary>Creates an exception with a message.</summary>
    /// <param name="message">What went wrong and, where there is one, the fix.</param>
    public TranscoderException(string message)
        : base(message)
    {
    }

    /// <summary>Creates an exception with a message and its cause.</summary>
    /// <param name="message">What went wrong and, where there is one, the fix.</param>
    /// <param name="innerException">The cause.</param>
    public TranscoderException(string message, Exception? innerException)
        : base(message, innerException)
    {
    }

    /// <summary>Creates an exception carrying the item's flags and the type involved (<see cref="Kind"/> <see cref="TranscoderErrorKind.Other"/>).</summary>
    /// <param name="message">What went wrong and, where there is one, the fix.</param>
    /// <param name="flags">The flags of the item being read or written, if known.</param>
    /// <param name="dataType">The type being written, or the type asked for when reading, if known.</param>
    /// <param name="innerException">The cause.</param>
    [System.Diagnostics.CodeAnalysis.SuppressMessage("ApiDesign", "RS0026:Do not add multiple public overloads with optional parameters",
        Justification = "Both overloads are in the first release (0.1.0), so no compiled caller can bind to the wrong one; which of the two keeps its optional cause is to be settled before 1.0.")]
    public TranscoderException(string message, uint? flags, Type? dataType, Exception? innerException = null)
        : this(message, TranscoderErrorKind.Other, flags, dataType, innerException)
    {
    }

    /// <summary>Creates an exception of a kind, carrying the item's flags and the type involved.</summary>
    /// <param name="message">What went wrong and, where there is one, the fix.</param>
    /// <param name="kind">What went wrong: a value that cannot be stored, or why an item cannot be read.</param>
    /// <param name="flags">The flags of the item being read or written, if known.</param>
    /// <param name="dataType">The type being written, or the type asked for when reading, if known.</param>
    /// <param name="innerException">The cause.</param>
    [System.Diagnostics.CodeAnalysis.SuppressMessage("ApiDesign", "RS0026:Do not add multiple public overloads with optional parameters",
        Justification = "Both overloads are in the first release (0.1.0), so no compiled caller can bind to the wrong one; which of the two keeps its optional cause is to be settled before 1.0.")]
    public TranscoderException(string message, TranscoderErrorKind kind, uint? flags, Type? dataType, Exception? innerException = null)
        : base(message, innerException)
    {
        Kind = kind;
        Flags = flags;
        DataType = dataType;
    }

    /// <summary>Gets what went wrong: a value that cannot be stored (<see cref="TranscoderErrorKind.Unstorable"/>), or why an item cannot be read.</summary>
    public TranscoderErrorKind Kind { get; }

    /// <summary>Gets the flags of the item being read or written, or <see langword="null"/> if there was no item yet.</summary>
    public uint? Flags { get; }

    /// <summary>Gets the type being written, or the type the caller asked for when reading, if known.</summary>
    public Type? DataType { get; }
}
