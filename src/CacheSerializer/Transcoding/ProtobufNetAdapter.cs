using System.Buffers;
using System.Collections;
using System.Reflection;
using ProtoBuf;
using ProtoBuf.Meta;

namespace CacheSerializer.Transcoding;

/// <summary>
/// Everything of the package that touches protobuf-net: the model the transcoder builds for itself, the guards run on a
/// type before its first object is stored, and the calls that write and read a body. protobuf-net owns the wire format;
/// this class decides which model, what it is configured with, and what is refused before protobuf-net could lose data.
/// </summary>
/// <remarks>
/// The guards (docs/protobuf-format.md, "Refused at Serialize") run once per type, at its first use, and only read the model: on a
/// model the application gives, they change nothing beyond what protobuf-net itself does on a first Serialize (it adds
/// the types it meets).
/// </remarks>
internal sealed class ProtobufNetAdapter
{
    private const BindingFlags Instance = BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic;

    // protobuf-net 3.4.40 reads [NullWrappedCollection] into ValueMember.NullWrappedCollection, an internal property: it has
    // no public way to set the layout on a member at model-build time. Found once; if a protobuf-net upgrade renames or
    // removes it, building a model that needs it throws (NullWrappingUnavailable) instead of silently writing plain bytes.
    private static readonly PropertyInfo? NullWrappedCollectionProperty =
        typeof(ValueMember).GetProperty("NullWrappedCollection", Instance) is { PropertyType: var type, CanWrite: true } property && type == typeof(bool)
            ? property
            : null;

    private readonly TypeModel _model;

    public ProtobufNetAdapter(TypeModel model) => _model = model;

    /// <summary>
    /// Creates the model the transcoder owns when the application gives none: <c>AllowParseableTypes</c> (Version, IPAddress,
    /// ...), <c>IncludeDateTimeKind</c> (a DateTime keeps its Kind), a DateTimeOffset surrogate (used once the application
    /// turns AllowParseableTypes off), and, when <paramref name="nullWrappedCollections"/> is set, protobuf-net's
    /// null-wrapped layout on every collection member of every contract it adds (as if each carried
    /// <c>[NullWrappedCollection]</c>), so null and empty stay apart.
    /// </summary>
    public static RuntimeTypeModel CreateModel(bool nullWrappedCollections)
    {
        var model = RuntimeTypeModel.Create("CacheSerializer");

        // The surrogate is registered first: protobuf-net refuses it for a type it already writes as parseable. While
        // AllowParseableTypes is on, protobuf-net still writes a DateTimeOffset member as its ToString() (the guard
        // refuses that: the text drops the sub-second part); an application turning the option off gets the surrogate.
        model.SetSurrogate<DateTimeOffset, DateTimeOffsetSurrogate>(DateTimeOffsetSurrogate.From, DateTimeOffsetSurrogate.To);
        model.AllowParseableTypes = true;
        model.IncludeDateTimeKind = true;
        if (nullWrappedCollections)
        {
            var property = NullWrappedCollectionProperty ?? throw ThrowHelper.NullWrappingUnavailable(typeof(ValueMember).Assembly.GetName().Version);
            model.AfterApplyDefaultBehaviour += (_, e) => WrapCollections(e.MetaType, property);
        }

        return model;
    }

    /// <summary>Whether this protobuf-net lets the transcoder apply the null-wrapped layout (true for 3.4.40).</summary>
    public static bool NullWrappingAvailable => NullWrappedCollectionProperty is not null;

    private static void WrapCollections(MetaType metaType, PropertyInfo property)
    {
        foreach (var member in metaType.GetFields())
        {
            // ItemType is set on the members protobuf-net writes as repeated fields or maps (not on byte[] or string).
            // SupportNull, the older layout, cannot be combined with the wrapper: a member asking for it keeps it.
            if (member.ItemType is not null && !member.SupportNull)
            {
                property.SetValue(member, true);
            }
        }
    }

    /// <summary>
    /// Runs every guard on <paramref name="type"/>, the runtime type of a value about to be stored, and returns why it
    /// cannot be stored faithfully, or <see langword="null"/>.
    /// </summary>
    public TranscoderException? Refuse(Type type) => new GraphCheck(this).CheckRoot(type);

    /// <summary>Creates the writer and reader of <paramref name="type"/>'s bodies (call after <see cref="Refuse"/> found nothing).</summary>
    public TypeBody CreateBody(Type type) =>
        (TypeBody)Activator.CreateInstance(typeof(TypeBody<>).MakeGenericType(type), _model)!;

    /// <summary>
    /// Returns the types an entry read as <paramref name="type"/> may hold: the root of its inheritance chain and every
    /// subtype reachable from that root through the model's includes; just the type itself when it has none.
    /// </summary>
    public IEnumerable<Type> FamilyOf(Type type)
    {
        if (_model is not RuntimeTypeModel runtime || !IsContract(runtime, type))
        {
            return [type];
        }

        var root = runtime[type];
        while (root.BaseType is { } parent)
        {
            root = parent;
        }

        var family = new List<Type>();
        var pending = new Stack<MetaType>([root]);
        while (pending.TryPop(out var meta))
        {
            family.Add(meta.Type);
            foreach (var subType in meta.GetSubtypes())
            {
                pending.Push(subType.DerivedType);
            }
        }

        return family;
    }

    // A type protobuf-net writes as a message of members. The attributes are read first: protobuf-net answers false to
    // CanSerializeContractType for a contract it cannot build (a duplicate field number), which the guards must name.
    private static bool IsContract(RuntimeTypeModel runtime, Type type) =>
        !type.IsPrimitive
        && !type.IsEnum
        && !IsCollection(runtime, type)
        && (runtime.IsDefined(type)
            || type.IsDefined(typeof(ProtoContractAttribute), inherit: false)
            || type.IsDefined(typeof(System.Runtime.Serialization.DataContractAttribute), inherit: false)
            || (runtime.CanSerializeContractType(type) && !runtime.CanSerializeBasicType(type)));

    // protobuf-net writes anything enumerable as a repeated field (or a map) unless the type opts out with IgnoreListHandling.
    private static bool IsCollection(RuntimeTypeModel? runtime, Type type) =>
        type != typeof(string)
        && type != typeof(byte[])
        && typeof(IEnumerable).IsAssignableFrom(type)
        && type.GetCustomAttribute<ProtoContractAttribute>(inherit: false) is not { IgnoreListHandling: true }
        && !(runtime is not null && runtime.IsDefined(type) && runtime[type].IgnoreListHandling);

    /// <summary>The guards, over every type a root type's bodies can hold (members, items, subtypes, bases), each visited once.</summary>
    private sealed class GraphCheck(ProtobufNetAdapter adapter)
    {
        private readonly HashSet<Type> _visited = [];

        public TranscoderException? CheckRoot(Type root)
        {
            var runtime = adapter._model as RuntimeTypeModel;

            // Before CanSerialize: protobuf-net takes a contract's undeclared subtype for the contract itself.
            if (runtime is not null && !IsCollection(runtime, root) && UndeclaredSubtype(runtime, root, root) is { } undeclared)
            {
                return undeclared;
            }

            // Contracts before CanSerialize too: it says false for one protobuf-net cannot build, which the guards name.
            if (runtime is not null && (IsContract(runtime, root) || IsCollection(runtime, root)))
            {
                return Visit(runtime, root, root) ?? (adapter._model.CanSerialize(root) ? null : ThrowHelper.NoContract(root));
            }

            return adapter._model.CanSerialize(root) ? null : ThrowHelper.NoContract(root);
        }

        private TranscoderException? Visit(RuntimeTypeModel runtime, Type root, Type type)
        {
            type = Nullable.GetUnderlyingType(type) ?? type;
            if (!_visited.Add(type) || type.IsPrimitive || type.IsEnum || type == typeof(string) || type == typeof(object))
            {
                return null;
            }

            if (IsCollection(runtime, type))
            {
                return CollectionWithMembers(root, type) ?? VisitAll(runtime, root, ElementTypes(type));
            }

            if (!IsContract(runtime, type))
            {
                return null;
            }

            var meta = runtime[type];
            return UndeclaredSubtype(runtime, root, type)
                ?? NumberClash(root, meta)
                ?? LossyText(runtime, root, meta)
                ?? PrefilledCollection(root, meta)
                ?? VisitAll(runtime, root, meta.GetFields().SelectMany(member => new[] { member.MemberType, member.ItemType }))
                ?? VisitAll(runtime, root, meta.GetSubtypes().Select(subType => subType.DerivedType.Type))
                ?? (meta.BaseType is { } parent ? Visit(runtime, root, parent.Type) : null);
        }

        private TranscoderException? VisitAll(RuntimeTypeModel runtime, Type root, IEnumerable<Type?> types)
        {
            foreach (var type in types)
            {
                if (type is not null && Visit(runtime, root, type) is { } reason)
                {
                    return reason;
                }
            }

            return null;
        }

        // A contract whose base is a contract must be reachable from it through includes; otherwise protobuf-net writes
        // only the derived type's own members and reads the entry back as the base.
        private static TranscoderException? UndeclaredSubtype(RuntimeTypeModel runtime, Type root, Type type)
        {
            for (var derived = type; derived.BaseType is { } parent && parent != typeof(object) && parent != typeof(ValueType); derived = parent)
            {
                if (!IsContract(runtime, parent))
                {
                    continue;
                }

                var meta = runtime[parent];
                if (!meta.GetSubtypes().Any(subType => subType.DerivedType.Type == derived))
                {
                    return ThrowHelper.UndeclaredSubtype(root, derived, parent, FreeNumber(meta));
                }
            }

            return null;
        }

        private static TranscoderException? NumberClash(Type root, MetaType meta)
        {
            foreach (var subType in meta.GetSubtypes())
            {
                if (meta.GetFields().FirstOrDefault(member => member.FieldNumber == subType.FieldNumber) is { } member)
                {
                    return ThrowHelper.IncludeNumberClash(root, meta.Type, subType.DerivedType.Type, member.Name, subType.FieldNumber, FreeNumber(meta));
                }
            }

            return null;
        }

        // protobuf-net checks AllowParseableTypes before anything else configured for a member's type, so a DateTimeOffset
        // member is written as DateTimeOffset.ToString() ("01/02/2020 03:04:05 +02:00", in the current culture) even when
        // the model has a surrogate for it: its sub-second part is lost, silently.
        private static TranscoderException? LossyText(RuntimeTypeModel runtime, Type root, MetaType meta)
        {
            if (!runtime.AllowParseableTypes)
            {
                return null;
            }

            foreach (var member in meta.GetFields())
            {
                var type = Nullable.GetUnderlyingType(member.ItemType ?? member.MemberType) ?? member.ItemType ?? member.MemberType;
                if (type == typeof(DateTimeOffset))
                {
                    return ThrowHelper.ParseableDateTimeOffset(root, meta.Type, member.Name);
                }
            }

            return null;
        }

        // protobuf-net adds what it reads to the collection a new instance already holds, and leaves it as it is when the
        // entry has none: a collection the constructor fills reads back with the constructor's items added, and an empty
        // or null one as the constructor's items (OverwriteList clears it only when an item arrives).
        private static TranscoderException? PrefilledCollection(Type root, MetaType meta)
        {
            if (meta.Type.IsAbstract || !meta.UseConstructor || meta.Type.GetConstructor(Instance, Type.EmptyTypes) is null)
            {
                return null;
            }

            object instance;
            try
            {
                instance = Activator.CreateInstance(meta.Type, nonPublic: true)!;
            }
            catch (Exception e) when (e is not OutOfMemoryException)
            {
                return null; // protobuf-net meets the same constructor when reading; the read-back check reports it then
            }

            foreach (var member in meta.GetFields())
            {
                if (member.ItemType is null)
                {
                    continue;
                }

                var filled = member.Member switch
                {
                    PropertyInfo property when property.GetIndexParameters().Length == 0 => property.GetValue(instance),
                    FieldInfo field => field.GetValue(instance),
                    _ => null,
                };
                if (filled is IEnumerable items && items.GetEnumerator() is var enumerator && enumerator.MoveNext())
                {
                    return ThrowHelper.PrefilledCollection(root, meta.Type, member.Name);
                }
            }

            return null;
        }

        // A collection type declared by the application that adds fields of its own: protobuf-net writes only its items.
        private static TranscoderException? CollectionWithMembers(Type root, Type type)
        {
            for (var level = type; level is not null && !IsFramework(level); level = level.BaseType)
            {
                var own = level.GetFields(Instance | BindingFlags.DeclaredOnly);
                if (own.Length > 0)
                {
                    return ThrowHelper.CollectionWithMembers(root, type, own.Select(MemberName));
                }
            }

            return null;
        }

        private static IEnumerable<Type> ElementTypes(Type type)
        {
            if (type.IsArray)
            {
                return [type.GetElementType()!];
            }

            // IEnumerable<T> of a list, KeyValuePair<K, V> of a dictionary: the pair's arguments are visited in turn.
            return type.GetInterfaces().Append(type)
                .Where(candidate => candidate.IsGenericType && candidate.GetGenericTypeDefinition() == typeof(IEnumerable<>))
                .Select(enumerable => enumerable.GetGenericArguments()[0])
                .SelectMany(item => item.IsGenericType && item.GetGenericTypeDefinition() == typeof(KeyValuePair<,>) ? item.GetGenericArguments() : [item]);
        }

        private static bool IsFramework(Type type) =>
            type.Assembly == typeof(object).Assembly || type.Assembly.GetName().Name is { } name && (name.StartsWith("System.", StringComparison.Ordinal) || name.StartsWith("Microsoft.", StringComparison.Ordinal));

        // An auto-property's backing field is "<Name>k__BackingField": report the property's name.
        private static string MemberName(FieldInfo field) =>
            field.Name.StartsWith('<') && field.Name.IndexOf('>', StringComparison.Ordinal) is > 1 and var end ? field.Name[1..end] : field.Name;

        // The lowest field number that none of the type's members and includes uses.
        private static int FreeNumber(MetaType meta)
        {
            var used = meta.GetFields().Select(member => member.FieldNumber).Concat(meta.GetSubtypes().Select(subType => subType.FieldNumber)).ToHashSet();
            var number = 1;
            while (used.Contains(number))
            {
                number++;
            }

            return number;
        }
    }

    /// <summary>Writes and reads the bodies of one type.</summary>
    public abstract class TypeBody
    {
        /// <summary>Returns a new array of <paramref name="headroom"/> bytes of room followed by protobuf-net's body of <paramref name="value"/>.</summary>
        public abstract byte[] Write(object value, int headroom);

        /// <summary>Reads a body with protobuf-net, straight from the item's memory.</summary>
        public abstract object Read(ReadOnlyMemory<byte> body);
    }

    /// <summary>One type's body writer and reader, with the type as a generic argument so protobuf-net's calls are typed.</summary>
    private sealed class TypeBody<T>(TypeModel model) : TypeBody
    {
        // Set once a body of T has been read back. Until then, each Serialize reads its body back, so a type protobuf-net
        // can write but not create (no usable constructor, a collection it cannot add to) is refused at Serialize rather
        // than found when the entry is read. A one-time cost per type.
        private volatile bool _readable;

        public override byte[] Write(object value, int headroom)
        {
            // One pass of protobuf-net into a pooled buffer that starts after the header's room, then one copy into the
            // payload array (left uninitialized: every byte of it is written). Measuring first to write straight into
            // an exact array costs a second walk of the graph, more than the copy: 2x on a flat message. The buffer is
            // written through protobuf-net's Stream API: its IBufferWriter API measures every nested message before
            // writing it, which made Serialize 1.5-3x slower on nested graphs (folders, records, the large object;
            // docs/benchmarks.md, "Transcoders").
            byte[] payload;
            var output = PooledBodyWriter.Rent(headroom);
            try
            {
                model.Serialize(output, (T)value);
                payload = GC.AllocateUninitializedArray<byte>(output.Written);
                output.WrittenSpan.CopyTo(payload);
            }
            finally
            {
                output.Return();
            }

            if (!_readable)
            {
                ReadBack(payload.AsMemory(headroom));
            }

            return payload;
        }

        private void ReadBack(ReadOnlyMemory<byte> body)
        {
            try
            {
                model.Deserialize<T>(body);
            }
            catch (Exception e) when (e is not OutOfMemoryException)
            {
                throw ThrowHelper.NotReadable(typeof(T), e);
            }

            _readable = true;
        }

        public override object Read(ReadOnlyMemory<byte> body) => model.Deserialize<T>(body)!;
    }

    /// <summary>
    /// The write-only stream protobuf-net writes a body into: one per thread, its array kept between calls up to
    /// <see cref="KeptBytes"/> (larger ones come from and go back to <see cref="ArrayPool{T}.Shared"/>).
    /// </summary>
    private sealed class PooledBodyWriter : Stream
    {
        private const int KeptBytes = 64 * 1024;

        [ThreadStatic]
        private static PooledBodyWriter? _cached;

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
            var writer = _cached ?? new PooledBodyWriter();
            _cached = null;
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

            _cached = this;
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

            var size = Math.Max(checked(_array.Length * 2), checked(_position + needed));
            var grown = size <= KeptBytes ? new byte[size] : ArrayPool<byte>.Shared.Rent(size);
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

    /// <summary>
    /// A DateTimeOffset member as protobuf-net has no layout for it (its own model throws "No serializer defined"):
    /// <c>message DateTimeOffset { int64 ticks = 1; sint32 offset_minutes = 2; }</c>, the local clock's ticks and the offset.
    /// </summary>
    [ProtoContract(Name = "DateTimeOffset")]
    private struct DateTimeOffsetSurrogate
    {
        [ProtoMember(1)]
        public long Ticks;

        [ProtoMember(2, DataFormat = DataFormat.ZigZag)]
        public int OffsetMinutes;

        public static DateTimeOffsetSurrogate From(DateTimeOffset value) =>
            new() { Ticks = value.Ticks, OffsetMinutes = (int)(value.Offset.Ticks / TimeSpan.TicksPerMinute) };

        public static DateTimeOffset To(DateTimeOffsetSurrogate value) => new(value.Ticks, TimeSpan.FromMinutes(value.OffsetMinutes));
    }
}
