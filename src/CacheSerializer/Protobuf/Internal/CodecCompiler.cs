using System.Reflection;

namespace CacheSerializer.Protobuf.Internal;

/// <summary>
/// Turns types and plans into codecs, once per type per model: the code-generation half of the engine. Member access,
/// construction and callbacks are compiled with expression trees; the codecs themselves are generic classes closed
/// over the member and value types, so a call does no reflection and boxes nothing.
/// </summary>
/// <remarks>Not thread-safe: <see cref="ProtoModel"/> calls it under its build lock and publishes what it returns.</remarks>
internal sealed class CodecCompiler
{
    private static readonly MethodInfo s_contract = Method(nameof(CreateContract));
    private static readonly MethodInfo s_subtype = Method(nameof(CreateSubtype));
    private static readonly MethodInfo s_single = Method(nameof(CreateSingle));
    private static readonly MethodInfo s_scalar = Method(nameof(CreateScalar));
    private static readonly MethodInfo s_repeated = Method(nameof(CreateRepeated));
    private static readonly MethodInfo s_map = Method(nameof(CreateMap));
    private static readonly MethodInfo s_include = Method(nameof(CreateInclude));
    private static readonly MethodInfo s_nullable = Method(nameof(CreateNullable));
    private static readonly MethodInfo s_enum = Method(nameof(CreateEnum));
    private static readonly MethodInfo s_parseable = Method(nameof(CreateParseable));
    private static readonly MethodInfo s_surrogate = Method(nameof(CreateSurrogate));
    private static readonly MethodInfo s_wrapper = Method(nameof(CreateWrapper));
    private static readonly MethodInfo s_root = Method(nameof(CreateRoot));

    // Members of these types get a ScalarMember specialized over a struct format (no virtual calls on the hot path).
    private static readonly Dictionary<Type, Type> s_scalarFormats = new()
    {
        [typeof(bool)] = typeof(BoolFormat),
        [typeof(int)] = typeof(Int32Format),
        [typeof(uint)] = typeof(UInt32Format),
        [typeof(long)] = typeof(Int64Format),
        [typeof(ulong)] = typeof(UInt64Format),
        [typeof(float)] = typeof(SingleFormat),
        [typeof(double)] = typeof(DoubleFormat),
        [typeof(string)] = typeof(StringFormat),
    };

    private static readonly Dictionary<Type, object> s_builtIn = new()
    {
        [typeof(bool)] = new BoolCodec(),
        [typeof(int)] = new Int32Codec(),
        [typeof(uint)] = new UInt32Codec(),
        [typeof(long)] = new Int64Codec(),
        [typeof(ulong)] = new UInt64Codec(),
        [typeof(float)] = new SingleCodec(),
        [typeof(double)] = new DoubleCodec(),
        [typeof(sbyte)] = new SmallIntegerCodec<sbyte>(v => v, v => checked((sbyte)v), unsigned: false),
        [typeof(short)] = new SmallIntegerCodec<short>(v => v, v => checked((short)v), unsigned: false),
        [typeof(byte)] = new SmallIntegerCodec<byte>(v => v, v => checked((byte)v), unsigned: true),
        [typeof(ushort)] = new SmallIntegerCodec<ushort>(v => v, v => checked((ushort)v), unsigned: true),
        [typeof(char)] = new SmallIntegerCodec<char>(v => v, v => checked((char)v), unsigned: true),
        [typeof(string)] = new StringCodec(),
        [typeof(byte[])] = new BytesCodec(),
        [typeof(TimeSpan)] = new TimeSpanCodec(),
        [typeof(Guid)] = new GuidCodec(),
        [typeof(decimal)] = new DecimalCodec(),
        [typeof(DateTimeOffset)] = new DateTimeOffsetCodec(),
        [typeof(DateOnly)] = new DateOnlyCodec(),
        [typeof(TimeOnly)] = new TimeOnlyCodec(),

        // Uri has no Parse(string); protobuf-net stores it as its original string whatever AllowParseableTypes says.
        [typeof(Uri)] = new TextCodec<Uri>(u => u.OriginalString, s => new Uri(s, UriKind.RelativeOrAbsolute)),
    };

    private readonly ModelOptions _options;
    private readonly Dictionary<Type, object> _values = [];
    private readonly Dictionary<Type, object> _levels = [];
    private readonly List<Action> _seals = [];

    public CodecCompiler(ModelOptions options) => _options = options;

    /// <summary>Builds the serializer of a root type; on failure, forgets every codec the attempt created.</summary>
    public RootSerializer CompileRoot(Type type)
    {
        var values = new Dictionary<Type, object>(_values);
        var levels = new Dictionary<Type, object>(_levels);
        try
        {
            // A contract is the message itself; anything else (scalar, string, collection) travels in field 1 of a wrapper
            // message, as protobuf-net wraps non-contract roots.
            object codec = !_options.Surrogates.ContainsKey(type) && IsContract(type)
                ? TryGetValueCodec(type)!
                : s_wrapper.MakeGenericMethod(type).Invoke(this, null)!;
            var root = (RootSerializer)s_root.MakeGenericMethod(type).Invoke(null, [codec])!;
            foreach (var seal in _seals)
            {
                seal();
            }

            _seals.Clear();
            return root;
        }
        catch (Exception ex)
        {
            _values.Clear();
            _levels.Clear();
            foreach (var pair in values)
            {
                _values[pair.Key] = pair.Value;
            }

            foreach (var pair in levels)
            {
                _levels[pair.Key] = pair.Value;
            }

            _seals.Clear();
            System.Runtime.ExceptionServices.ExceptionDispatchInfo.Throw(Unwrap(ex));
            throw;
        }
    }

    /// <summary>Returns the <c>ValueCodec&lt;T&gt;</c> of a non-collection type, or null when the type is not serializable.</summary>
    private object? TryGetValueCodec(Type type)
    {
        if (_values.TryGetValue(type, out var cached))
        {
            return cached;
        }

        if (_options.Surrogates.TryGetValue(type, out var surrogate))
        {
            return Remember(type, s_surrogate.MakeGenericMethod(type, surrogate).Invoke(this, null)!);
        }

        if (s_builtIn.TryGetValue(type, out var builtIn))
        {
            return builtIn;
        }

        if (type == typeof(DateTime))
        {
            return Remember(type, new DateTimeCodec(_options.IncludeDateTimeKind));
        }

        if (type.IsEnum)
        {
            return Remember(type, s_enum.MakeGenericMethod(type).Invoke(null, null)!);
        }

        if (Nullable.GetUnderlyingType(type) is { } underlying)
        {
            return TryGetValueCodec(underlying) is { } inner
                ? Remember(type, s_nullable.MakeGenericMethod(underlying).Invoke(null, [inner])!)
                : null;
        }

        if (IsContract(type))
        {
            var root = HierarchyRoot(type);
            if (root != type)
            {
                var rootCodec = TryGetValueCodec(root)!;
                return Remember(type, s_subtype.MakeGenericMethod(type, root).Invoke(null, [rootCodec])!);
            }

            return GetLevel(type, isHierarchyRoot: true);
        }

        if (_options.AllowParseableTypes && !type.IsValueType && FindParse(type) is { } parse)
        {
            return Remember(type, s_parseable.MakeGenericMethod(type).Invoke(null, [parse])!);
        }

        return null;
    }

    /// <summary>A contract, or a class below one: FindBaseContract throws when the base does not declare it as a subtype.</summary>
    private bool IsContract(Type type) => PlanBuilder.IsContract(type, _options)
        || (type.IsClass && type != typeof(string) && !type.IsArray && PlanBuilder.FindBaseContract(type, _options) is not null);

    private object GetValueCodec(Type type, Type owner, string member)
    {
        if (CollectionShape.Classify(type) is not null)
        {
            ThrowHelper.ThrowUnsupportedMember(owner, member, type, new ProtoException("collections of collections have no protobuf encoding."));
        }

        return TryGetValueCodec(type) ?? ThrowUnsupported(owner, member, type);
    }

    private static object ThrowUnsupported(Type owner, string member, Type type)
    {
        ThrowHelper.ThrowUnsupportedMember(owner, member, type, null);
        return null;
    }

    private Type HierarchyRoot(Type type)
    {
        var root = type;
        while (PlanBuilder.FindBaseContract(root, _options) is { } parent)
        {
            root = parent;
        }

        return root;
    }

    private object GetLevel(Type type, bool isHierarchyRoot)
    {
        if (_levels.TryGetValue(type, out var level))
        {
            return level;
        }

        var plan = PlanBuilder.Build(type, _options);
        return s_contract.MakeGenericMethod(type).Invoke(this, [plan, isHierarchyRoot])!;
    }

    private object Remember(Type type, object codec)
    {
        _values[type] = codec;
        return codec;
    }

    private ContractCodec<T> CreateContract<T>(ContractPlan plan, bool isHierarchyRoot)
    {
        var codec = new ContractCodec<T>();
        _levels[typeof(T)] = codec;
        if (isHierarchyRoot)
        {
            _values[typeof(T)] = codec;
        }

        var members = new MemberCodec<T>[plan.Members.Count];
        for (int i = 0; i < members.Length; i++)
        {
            members[i] = CreateMember<T>(plan.Members[i]);
        }

        var includes = new IncludeCodec<T>[plan.Includes.Count];
        for (int i = 0; i < includes.Length; i++)
        {
            var include = plan.Includes[i];
            var derivedLevel = GetLevel(include.DerivedType, isHierarchyRoot: false);
            includes[i] = (IncludeCodec<T>)s_include.MakeGenericMethod(typeof(T), include.DerivedType).Invoke(null, [include.FieldNumber, derivedLevel])!;
        }

        // Flat contracts (hot scalars only) also get emitted bodies that replace the member loop on the hot path.
        var flat = plan.Members.Any(m => _options.Surrogates.ContainsKey(m.MemberType)) ? null : FlatContractEmitter.TryEmit<T>(plan, s_scalarFormats);
        codec.Initialize(
            members, includes, Accessors.Creator<T>(plan.SkipConstructor), Placeholder<T>(plan), Accessors.Callbacks<T>(plan.Callbacks), isHierarchyRoot, flat);
        bool anyOverwrite = plan.Members.Any(m => m.OverwriteList);
        _seals.Add(() => codec.Seal(anyOverwrite));
        return codec;
    }

    /// <summary>For an abstract level: an uninitialized instance of its first concrete subtype, to hold early base fields.</summary>
    private Func<T>? Placeholder<T>(ContractPlan plan)
    {
        if (!typeof(T).IsAbstract)
        {
            return null;
        }

        var pending = new Queue<IncludePlan>(plan.Includes);
        while (pending.Count > 0)
        {
            var type = pending.Dequeue().DerivedType;
            if (!type.IsAbstract)
            {
                return () => (T)System.Runtime.CompilerServices.RuntimeHelpers.GetUninitializedObject(type);
            }

            foreach (var include in PlanBuilder.Build(type, _options).Includes)
            {
                pending.Enqueue(include);
            }
        }

        return null;
    }

    private static SubtypeCodec<TDerived, TRoot> CreateSubtype<TDerived, TRoot>(MessageCodec<TRoot> root)
        where TDerived : TRoot
        => new(root);

    private static IncludeCodec<TBase, TDerived> CreateInclude<TBase, TDerived>(int fieldNumber, ContractCodec<TDerived> level)
        where TDerived : TBase
        => new(fieldNumber, level);

    private MemberCodec<TOwner> CreateMember<TOwner>(MemberPlan plan)
    {
        try
        {
            var shape = CollectionShape.Classify(plan.MemberType);
            if (shape is null)
            {
                if (!plan.CanWrite)
                {
                    ThrowHelper.ThrowNotSettable(typeof(TOwner), plan.Name);
                }

                if (s_scalarFormats.TryGetValue(plan.MemberType, out var format) && !_options.Surrogates.ContainsKey(plan.MemberType))
                {
                    return (MemberCodec<TOwner>)s_scalar.MakeGenericMethod(typeof(TOwner), plan.MemberType, format).Invoke(null, [plan])!;
                }

                var codec = GetValueCodec(plan.MemberType, typeof(TOwner), plan.Name);
                return (MemberCodec<TOwner>)s_single.MakeGenericMethod(typeof(TOwner), plan.MemberType).Invoke(null, [plan, codec])!;
            }

            if (!plan.CanWrite && (shape.Kind == CollectionKind.Array))
            {
                ThrowHelper.ThrowNotSettable(typeof(TOwner), plan.Name);
            }

            if (shape.Kind == CollectionKind.Map)
            {
                var key = GetValueCodec(shape.ElementType, typeof(TOwner), plan.Name);
                var value = GetValueCodec(shape.ValueType!, typeof(TOwner), plan.Name);
                return (MemberCodec<TOwner>)s_map.MakeGenericMethod(typeof(TOwner), plan.MemberType, shape.ElementType, shape.ValueType!)
                    .Invoke(null, [plan, shape, key, value])!;
            }

            var element = GetValueCodec(shape.ElementType, typeof(TOwner), plan.Name);
            return (MemberCodec<TOwner>)s_repeated.MakeGenericMethod(typeof(TOwner), plan.MemberType, shape.ElementType)
                .Invoke(null, [plan, shape, element])!;
        }
        catch (Exception ex) when (Unwrap(ex) is ProtoException inner && !ThrowHelper.IsAboutMember(inner.Message, typeof(TOwner), plan.Name, plan.MemberType))
        {
            ThrowHelper.ThrowUnsupportedMember(typeof(TOwner), plan.Name, plan.MemberType, inner);
            throw;
        }
    }

    private static ScalarMember<TOwner, T, TFormat> CreateScalar<TOwner, T, TFormat>(MemberPlan plan)
        where TFormat : struct, IScalarFormat<T>
        => new(plan.FieldNumber, plan.Name, Accessors.Getter<TOwner, T>(plan.Member), Accessors.Setter<TOwner, T>(plan.Member)!);

    private static SingleMember<TOwner, TValue> CreateSingle<TOwner, TValue>(MemberPlan plan, ValueCodec<TValue> codec)
        => new(plan.FieldNumber, plan.Name, Accessors.Getter<TOwner, TValue>(plan.Member), Accessors.Setter<TOwner, TValue>(plan.Member)!, codec);

    private static RepeatedMember<TOwner, TColl, TElem> CreateRepeated<TOwner, TColl, TElem>(MemberPlan plan, CollectionShape shape, ValueCodec<TElem> element)
        where TColl : class, IEnumerable<TElem>
    {
        Func<List<TElem>, TColl>? fromBuffer = shape.Kind == CollectionKind.Array ? list => (TColl)(object)list.ToArray() : null;
        Func<TColl> create = shape.CannotCreate
            ? () => ThrowHelper.ThrowCannotAdd<TColl>(ThrowHelper.Name(typeof(TOwner)), plan.Name, typeof(TColl))
            : shape.Kind == CollectionKind.Array ? () => (TColl)(object)Array.Empty<TElem>() : Accessors.Creator<TColl>(false)!;
        if (shape.ConcreteType != typeof(TColl) && shape.Kind != CollectionKind.Array)
        {
            var concrete = (Func<object>)Delegate.CreateDelegate(typeof(Func<object>), typeof(CodecCompiler).GetMethod(nameof(New), BindingFlags.NonPublic | BindingFlags.Static)!.MakeGenericMethod(shape.ConcreteType));
            create = () => (TColl)concrete();
        }

        return new RepeatedMember<TOwner, TColl, TElem>(
            plan.FieldNumber, plan.Name, ThrowHelper.Name(typeof(TOwner)),
            Accessors.Getter<TOwner, TColl?>(plan.Member), Accessors.Setter<TOwner, TColl>(plan.Member),
            create, fromBuffer, element, plan.IsPacked, plan.OverwriteList);
    }

    private static MapMember<TOwner, TDict, TKey, TValue> CreateMap<TOwner, TDict, TKey, TValue>(
        MemberPlan plan, CollectionShape shape, ValueCodec<TKey> key, ValueCodec<TValue> value)
        where TDict : class, IEnumerable<KeyValuePair<TKey, TValue>>
        where TKey : notnull
    {
        var concrete = (Func<object>)Delegate.CreateDelegate(typeof(Func<object>), typeof(CodecCompiler).GetMethod(nameof(New), BindingFlags.NonPublic | BindingFlags.Static)!.MakeGenericMethod(shape.ConcreteType));
        return new MapMember<TOwner, TDict, TKey, TValue>(
            plan.FieldNumber, plan.Name, ThrowHelper.Name(typeof(TOwner)),
            Accessors.Getter<TOwner, TDict?>(plan.Member), Accessors.Setter<TOwner, TDict>(plan.Member),
            () => (TDict)concrete(), new MapEntryCodec<TKey, TValue>(key, value), plan.OverwriteList);
    }

    private static object New<T>()
        where T : new()
        => new T();

    private static NullableCodec<T> CreateNullable<T>(ValueCodec<T> inner)
        where T : struct
        => new(inner);

    private static EnumCodec<T> CreateEnum<T>()
        where T : struct, Enum
        => new();

    private static TextCodec<T> CreateParseable<T>(MethodInfo parse)
        where T : class
        => new(value => value.ToString()!, parse.CreateDelegate<Func<string, T>>());

    private SurrogateCodec<T, TSurrogate> CreateSurrogate<T, TSurrogate>()
    {
        var to = Accessors.Converter<T, TSurrogate>();
        var from = Accessors.Converter<TSurrogate, T>();
        if (to is null || from is null || !PlanBuilder.IsContract(typeof(TSurrogate), _options))
        {
            ThrowHelper.ThrowSurrogate(typeof(T), typeof(TSurrogate));
        }

        var inner = (ValueCodec<TSurrogate>)TryGetValueCodec(typeof(TSurrogate))!;
        return new SurrogateCodec<T, TSurrogate>(inner, to, from);
    }

    private WrapperCodec<T> CreateWrapper<T>()
    {
        var field = typeof(RootBox<T>).GetField(nameof(RootBox<T>.Value))!;
        var plan = new MemberPlan(field, 1, typeof(T), IsPacked: false, OverwriteList: false, CanWrite: true);
        return new WrapperCodec<T>(CreateMember<RootBox<T>>(plan));
    }

    private static RootSerializer<T> CreateRoot<T>(MessageCodec<T> codec) => new(codec);

    private static MethodInfo? FindParse(Type type)
    {
        var parse = type.GetMethod("Parse", BindingFlags.Public | BindingFlags.Static, [typeof(string)]);
        var toString = type.GetMethod(nameof(ToString), BindingFlags.Public | BindingFlags.Instance, Type.EmptyTypes);
        return parse is not null && parse.ReturnType == type && toString is not null && toString.DeclaringType != typeof(object) ? parse : null;
    }

    private static MethodInfo Method(string name)
        => typeof(CodecCompiler).GetMethod(name, BindingFlags.NonPublic | BindingFlags.Static | BindingFlags.Instance)!;

    private static Exception Unwrap(Exception ex)
    {
        while (ex is TargetInvocationException { InnerException: { } inner })
        {
            ex = inner;
        }

        return ex;
    }
}
