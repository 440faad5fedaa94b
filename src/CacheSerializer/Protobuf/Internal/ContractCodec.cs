using Google.Protobuf;
using static Google.Protobuf.WireFormat;

namespace CacheSerializer.Protobuf.Internal;

/// <summary>
/// One level of a contract: the members a type declares and the <c>[ProtoInclude]</c> subtypes below it.
/// As protobuf-net lays it out, a subtype's fields travel in a sub-message at the include's field number, written before
/// this level's own fields, nested level by level from the root of the hierarchy.
/// </summary>
/// <remarks>Built in two phases (constructed, then <see cref="Initialize"/>d) so recursive types can refer to themselves.</remarks>
internal sealed class ContractCodec<T> : MessageCodec<T>
{
    private const int DenseLookupLimit = 256;

    private MemberCodec<T>[] _members = [];
    private MemberCodec<T>?[] _dense = [];
    private Dictionary<int, MemberCodec<T>>? _sparse;
    private IncludeCodec<T>[] _includes = [];
    private Func<T>? _create;
    private Func<T>? _placeholder;
    private FlatBody<T>? _flat;
    private Action<T>? _callbacks;
    private bool _hierarchyHasCallbacks;
    private bool _anyOverwrite;
    private bool _checkRuntimeType;
    private bool _isHierarchyRoot;

    public ContractCodec() => LevelReader = new Level(this);

    /// <summary>Gets the reader of this level alone (no callbacks), used when this level is a subtype's sub-message.</summary>
    public IBodyReader<T> LevelReader { get; }

    public IReadOnlyList<IncludeCodec<T>> Includes => _includes;

    public void Initialize(
        MemberCodec<T>[] members,
        IncludeCodec<T>[] includes,
        Func<T>? create,
        Func<T>? placeholder,
        Action<T>? callbacks,
        bool isHierarchyRoot,
        FlatBody<T>? flat)
    {
        _flat = flat;
        _members = members;
        _includes = includes;
        _create = create;
        _placeholder = placeholder;
        _callbacks = callbacks;
        _isHierarchyRoot = isHierarchyRoot;
        _checkRuntimeType = !typeof(T).IsValueType && !typeof(T).IsSealed;

        int max = 0;
        foreach (var member in members)
        {
            max = Math.Max(max, member.FieldNumber);
        }

        if (max <= DenseLookupLimit)
        {
            _dense = new MemberCodec<T>?[max + 1];
            foreach (var member in members)
            {
                _dense[member.FieldNumber] = member;
            }
        }
        else
        {
            _sparse = members.ToDictionary(m => m.FieldNumber);
        }
    }

    /// <summary>Gets a value indicating whether this contract has emitted flat bodies, so writing it involves no nested message.</summary>
    public bool IsFlat => _flat is not null;

    /// <summary>Gets a value indicating whether this level or any level below it has <c>[OnDeserialized]</c> callbacks.</summary>
    public bool HasAnyCallbacks => HasCallbacks();

    /// <summary>Completes set-up once every level of the hierarchy is initialized.</summary>
    public void Seal(bool anyOverwrite)
    {
        _anyOverwrite = anyOverwrite;
        _hierarchyHasCallbacks = _isHierarchyRoot && HasCallbacks();
    }

    public override bool IsDefault(T value) => value is null;

    public override int MeasureBody(T value, int depth)
    {
        if (depth > ProtoModel.MaxDepth)
        {
            // typeof(T) only on the failing path: in shared generic code it costs a dictionary lookup.
            ThrowHelper.ThrowTooDeep(typeof(T));
        }
        int size = 0;
        if (_checkRuntimeType)
        {
            var include = Dispatch(value);
            if (include is not null)
            {
                size += include.Measure(value, depth);
            }
        }

        if (_flat is not null)
        {
            return size + _flat.Measure(value);
        }

        foreach (var member in _members)
        {
            size += member.Measure(value, depth);
        }

        return size;
    }

    public override void WriteBody(ref WriteContext ctx, T value)
    {
        if (_checkRuntimeType)
        {
            Dispatch(value)?.Write(ref ctx, value);
        }

        if (_flat is not null)
        {
            _flat.Write(ref ctx, value);
            return;
        }

        foreach (var member in _members)
        {
            member.Write(ref ctx, value);
        }
    }

    public override T ReadBody(ref ParseContext ctx, T existing)
    {
        var value = ReadLevel(ref ctx, existing);
        if (_hierarchyHasCallbacks)
        {
            RunCallbacks(value);
        }

        return value;
    }

    public void RunCallbacks(T value)
    {
        _callbacks?.Invoke(value);
        foreach (var include in _includes)
        {
            if (include.Matches(value))
            {
                include.RunCallbacks(value);
                break;
            }
        }
    }

    private T ReadLevel(ref ParseContext ctx, T existing)
    {
        if (_flat is not null)
        {
            return _flat.Read(ref ctx, existing);
        }

        T value = existing;
        bool have = existing is not null;
        bool placeholder = false;
        uint tag = ctx.ReadTag();
        while (tag != 0)
        {
            int field = GetTagFieldNumber(tag);
            var member = (uint)field < (uint)_dense.Length ? _dense[field] : null;
            if (member is null && _sparse is not null)
            {
                _sparse.TryGetValue(field, out member);
            }

            if (member is not null)
            {
                if (!have)
                {
                    // An abstract level whose fields come before its subtype's (Google orders by field number) collects
                    // them on a placeholder instance of a concrete subtype, then moves them onto the real instance.
                    placeholder = _create is null && _placeholder is not null;
                    value = placeholder ? _placeholder!() : Create();
                    have = true;
                }

                tag = member.Read(ref ctx, tag, ref value);
                continue;
            }

            var wire = GetTagWireType(tag);
            if (wire == WireType.EndGroup)
            {
                // Only valid when closing a group; the caller's end-tag check rejects it otherwise.
                break;
            }

            var include = wire == WireType.LengthDelimited ? FindInclude(field) : null;
            if (include is not null)
            {
                var derived = include.Read(ref ctx, placeholder ? default! : value);
                if (have && !ReferenceEquals(derived, value))
                {
                    // This level's fields came before the subtype's (a writer that orders by field number, such as
                    // Google's for a oneof): move what was read onto the derived instance.
                    foreach (var m in _members)
                    {
                        m.Copy(value, ref derived);
                    }
                }

                value = derived;
                have = true;
                placeholder = false;
            }
            else
            {
                FieldSkipper.Skip(ref ctx, tag);
            }

            tag = ctx.ReadTag();
        }

        if (placeholder)
        {
            ThrowHelper.ThrowCannotCreate(typeof(T));
        }

        return have ? value : Create();
    }

    private T Create()
    {
        if (_create is null)
        {
            ThrowHelper.ThrowCannotCreate(typeof(T));
        }

        var value = _create();
        if (_anyOverwrite)
        {
            foreach (var member in _members)
            {
                member.ClearForOverwrite(value);
            }
        }

        return value;
    }

    private IncludeCodec<T>? FindInclude(int field)
    {
        foreach (var include in _includes)
        {
            if (include.FieldNumber == field)
            {
                return include;
            }
        }

        return null;
    }

    private IncludeCodec<T>? Dispatch(T value)
    {
        var runtimeType = value!.GetType();
        if (runtimeType == typeof(T))
        {
            return null;
        }

        foreach (var include in _includes)
        {
            if (include.Matches(value))
            {
                return include;
            }
        }

        return ThrowHelper.ThrowUndeclaredSubtype<IncludeCodec<T>>(typeof(T), runtimeType);
    }

    private bool HasCallbacks()
    {
        if (_callbacks is not null)
        {
            return true;
        }

        foreach (var include in _includes)
        {
            if (include.HasCallbacks)
            {
                return true;
            }
        }

        return false;
    }

    private sealed class Level : IBodyReader<T>
    {
        private readonly ContractCodec<T> _owner;

        public Level(ContractCodec<T> owner) => _owner = owner;

        public T ReadBody(ref ParseContext ctx, T existing) => _owner.ReadLevel(ref ctx, existing);
    }
}
