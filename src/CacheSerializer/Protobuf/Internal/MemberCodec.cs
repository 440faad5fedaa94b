using Google.Protobuf;

namespace CacheSerializer.Protobuf.Internal;

/// <summary>Assigns a member of a class or struct (by reference, so struct owners are updated in place).</summary>
internal delegate void Setter<TOwner, TValue>(ref TOwner owner, TValue value);

/// <summary>One serialized member of a contract: its field number, how it is measured, written and read.</summary>
internal abstract class MemberCodec<TOwner>
{
    protected MemberCodec(int fieldNumber, string name)
    {
        FieldNumber = fieldNumber;
        Name = name;
    }

    public int FieldNumber { get; }

    /// <summary>Gets the member's name as the contract declares it, for error messages.</summary>
    public string Name { get; }

    /// <summary>Returns the bytes this member adds to its message (tags included); <paramref name="depth"/> is the message's nesting.</summary>
    public abstract int Measure(TOwner owner, int depth);

    public abstract void Write(ref WriteContext ctx, TOwner owner);

    /// <summary>Reads the field whose tag was just read, and returns the next tag (0 at the end of the message).</summary>
    /// <remarks>Returning the next tag lets a repeated member read a whole run of its own field without a peek API.</remarks>
    public abstract uint Read(ref ParseContext ctx, uint tag, ref TOwner owner);

    /// <summary>Copies this member from one instance to another (when a subtype's field arrives after base fields).</summary>
    public abstract void Copy(TOwner from, ref TOwner to);

    /// <summary>Empties a collection the constructor filled, for <c>OverwriteList</c> members.</summary>
    public virtual void ClearForOverwrite(TOwner owner)
    {
    }
}
