namespace CacheSerializer.Transcoding.Codecs.Objects;

/// <summary>
/// Writes one object type's payloads: its type header (<see cref="TypeHeader"/>), then its body. Two kinds exist: the
/// Google.Protobuf message codec (flag 0xC540, <see cref="MessageCodec"/>) and the protobuf-net codec (flag 0xC541,
/// <see cref="ProtobufNetCodec"/>), whose body is protobuf-net's. Both are read back by an <see cref="ObjectFamilyReader"/>.
/// </summary>
internal abstract class ObjectCodec : IValueWriter
{
    protected ObjectCodec(uint flags, Type type, string name, string contract, Func<uint, byte[]> header)
    {
        Flags = flags;
        Type = type;
        Name = name;
        Contract = contract;
        Fingerprint = ContractFingerprint.Of(contract);
        Header = header(Fingerprint);
    }

    public uint Flags { get; }

    public bool Compressible => true;

    /// <summary>Gets the type this codec writes.</summary>
    public Type Type { get; }

    /// <summary>Gets the stable name the type is known by (and written as, when it has no alias).</summary>
    public string Name { get; }

    /// <summary>Gets the canonical description of the type's contract: everything that decides the bytes of its bodies (docs/format.md, "Contract fingerprint").</summary>
    public string Contract { get; }

    /// <summary>Gets the hash of <see cref="Contract"/> the header carries; an item under another one was written by another contract and is not read.</summary>
    public uint Fingerprint { get; }

    /// <summary>Gets the header bytes written in front of every body: the alias when the type has one, else the name (messages) or its hash (protobuf-net types), then the fingerprint.</summary>
    public byte[] Header { get; }

    public ArraySegment<byte> Write(object value)
    {
        // The body is written after room left for the header: header and body end up in one array, the payload.
        byte[] buffer = SerializeBody(value, Header.Length);
        Header.CopyTo(buffer, 0);
        return new ArraySegment<byte>(buffer);
    }

    /// <summary>Returns a new array of <paramref name="headroom"/> bytes of room followed by the body of <paramref name="value"/>.</summary>
    protected abstract byte[] SerializeBody(object value, int headroom);

    /// <summary>Reads a body (the payload after the header) into a value of <see cref="Type"/>.</summary>
    public abstract object ReadBody(ReadOnlyMemory<byte> body);
}
