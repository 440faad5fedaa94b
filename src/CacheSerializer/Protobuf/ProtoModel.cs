using System.Collections.Concurrent;
using System.Runtime.ExceptionServices;
using CacheSerializer.Protobuf.Internal;

namespace CacheSerializer.Protobuf;

/// <summary>
/// Serializes <c>[ProtoContract]</c> objects to protobuf and back, laid out as protobuf-net lays them out.
/// </summary>
/// <remarks>
/// <para>Types are discovered from their attributes on first use, or configured before first use with <see cref="Add(Type, string[])"/>,
/// <see cref="AddSubType"/> and <see cref="AddSurrogate"/>. The first call to <see cref="Serialize{T}(T)"/>, a Deserialize
/// overload or <see cref="CanSerialize(Type)"/> freezes the configuration.</para>
/// <para>A model is thread-safe, including its cold start: many threads may use one instance at once. Each type's serializer is
/// compiled once and cached; a failure to compile (an invalid or unsupported type) is cached too and replayed.</para>
/// <para>There is no shared default instance: each library creates and configures its own model.</para>
/// </remarks>
public sealed class ProtoModel
{
    /// <summary>The most messages (contracts, inheritance levels, map entries) that may nest below the root message.</summary>
    /// <remarks>A graph deeper than this, or one with a cycle, fails at Serialize with a <see cref="ProtoException"/>.</remarks>
    public const int MaxDepth = 64;

    private readonly ModelOptions _options = new();
    private readonly ConcurrentDictionary<Type, Entry> _entries = new();
    private readonly ConcurrentDictionary<Type, IReadOnlyList<Type>> _subTypes = new();
    private readonly Lock _buildLock = new();
    private CodecCompiler? _compiler;
    private volatile bool _frozen;

    /// <summary>Gets or sets a value indicating whether types with a public static <c>Parse(string)</c> and their own <c>ToString()</c>
    /// (<see cref="Version"/>, <see cref="System.Net.IPAddress"/>, ...) are stored as strings.</summary>
    /// <value>Defaults to <see langword="true"/> (protobuf-net's <c>AllowParseableTypes</c> defaults to false).</value>
    /// <exception cref="InvalidOperationException">The model is already in use.</exception>
    public bool AllowParseableTypes
    {
        get => _options.AllowParseableTypes;
        set
        {
            ThrowIfFrozen();
            _options.AllowParseableTypes = value;
        }
    }

    /// <summary>Gets or sets a value indicating whether a DateTime's Kind is written (bcl.DateTime field 3), so Utc and Local survive.</summary>
    /// <value>Defaults to <see langword="true"/> (protobuf-net leaves the Kind out unless told; its readers honour it either way).</value>
    /// <exception cref="InvalidOperationException">The model is already in use.</exception>
    public bool IncludeDateTimeKind
    {
        get => _options.IncludeDateTimeKind;
        set
        {
            ThrowIfFrozen();
            _options.IncludeDateTimeKind = value;
        }
    }

    /// <summary>Configures a type that cannot be annotated: its members get field numbers 1, 2, 3... in the order given.</summary>
    /// <param name="type">The class or struct.</param>
    /// <param name="memberNames">Field and property names, in field-number order.</param>
    /// <returns>This model, for chaining.</returns>
    /// <exception cref="ArgumentNullException">An argument is null.</exception>
    /// <exception cref="InvalidOperationException">The model is already in use.</exception>
    public ProtoModel Add(Type type, params string[] memberNames)
    {
        ArgumentNullException.ThrowIfNull(memberNames);
        var numbers = new Dictionary<string, int>(StringComparer.Ordinal);
        for (int i = 0; i < memberNames.Length; i++)
        {
            numbers[memberNames[i]] = i + 1;
        }

        return Add(type, numbers);
    }

    /// <summary>Configures a type that cannot be annotated, with an explicit field number for each member.</summary>
    /// <param name="type">The class or struct.</param>
    /// <param name="fieldNumbers">Field and property names mapped to their field numbers.</param>
    /// <returns>This model, for chaining.</returns>
    /// <exception cref="ArgumentNullException">An argument is null.</exception>
    /// <exception cref="InvalidOperationException">The model is already in use.</exception>
    public ProtoModel Add(Type type, IReadOnlyDictionary<string, int> fieldNumbers)
    {
        ArgumentNullException.ThrowIfNull(type);
        ArgumentNullException.ThrowIfNull(fieldNumbers);
        ThrowIfFrozen();
        _options.Types[type] = new Dictionary<string, int>(fieldNumbers, StringComparer.Ordinal);
        return this;
    }

    /// <summary>Declares <paramref name="derivedType"/> as a subtype of <paramref name="baseType"/>, as <see cref="ProtoIncludeAttribute"/> would.</summary>
    /// <param name="baseType">The contract the subtype derives from.</param>
    /// <param name="fieldNumber">The field number of the subtype's sub-message; must not be used by a member of the base.</param>
    /// <param name="derivedType">The subtype.</param>
    /// <returns>This model, for chaining.</returns>
    /// <exception cref="ArgumentNullException">A type is null.</exception>
    /// <exception cref="InvalidOperationException">The model is already in use.</exception>
    public ProtoModel AddSubType(Type baseType, int fieldNumber, Type derivedType)
    {
        ArgumentNullException.ThrowIfNull(baseType);
        ArgumentNullException.ThrowIfNull(derivedType);
        ThrowIfFrozen();
        if (!_options.SubTypes.TryGetValue(baseType, out var list))
        {
            _options.SubTypes[baseType] = list = [];
        }

        list.Add(new IncludePlan(fieldNumber, derivedType));
        return this;
    }

    /// <summary>Stores <paramref name="type"/> as <paramref name="surrogateType"/>, a contract, converting through their conversion operators.</summary>
    /// <param name="type">The type that cannot be a contract itself.</param>
    /// <param name="surrogateType">A contract with implicit or explicit conversions to and from <paramref name="type"/>.</param>
    /// <returns>This model, for chaining.</returns>
    /// <exception cref="ArgumentNullException">A type is null.</exception>
    /// <exception cref="InvalidOperationException">The model is already in use.</exception>
    public ProtoModel AddSurrogate(Type type, Type surrogateType)
    {
        ArgumentNullException.ThrowIfNull(type);
        ArgumentNullException.ThrowIfNull(surrogateType);
        ThrowIfFrozen();
        _options.Surrogates[type] = surrogateType;
        return this;
    }

    /// <summary>Serializes a value into a new array holding exactly its protobuf payload.</summary>
    /// <typeparam name="T">The contract, or any type the engine stores (scalar, string, collection, ...).</typeparam>
    /// <param name="value">The value; null roots are the caller's to represent.</param>
    /// <returns>The payload.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="value"/> is null.</exception>
    /// <exception cref="ProtoException">The type cannot be stored faithfully (undeclared subtype, collection subclass, null
    /// element, cycle or too deep a graph, unsupported member).</exception>
    public byte[] Serialize<T>(T value)
    {
        if (value is null)
        {
            throw new ArgumentNullException(nameof(value));
        }

        return GetSerializer<T>().Serialize(value, 0);
    }

    /// <summary>Serializes a value of a type known at run time.</summary>
    /// <param name="type">The type to serialize as; <paramref name="value"/> must be an instance of it.</param>
    /// <param name="value">The value.</param>
    /// <returns>The payload.</returns>
    /// <exception cref="ArgumentNullException">An argument is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="value"/> is not a <paramref name="type"/>.</exception>
    /// <exception cref="ProtoException">The type cannot be stored faithfully.</exception>
    public byte[] Serialize(Type type, object value) => Serialize(type, value, 0);

    /// <summary>Deserializes a payload into a <typeparamref name="T"/> (or, for a contract with subtypes, the subtype it holds).</summary>
    /// <typeparam name="T">The type the payload was written as, or a base contract of it.</typeparam>
    /// <param name="data">The payload.</param>
    /// <returns>The value; a contract whose fields were all default comes back as an instance, never null.</returns>
    /// <exception cref="ProtoException">The payload is malformed, truncated or hostile, or the type cannot be serialized.</exception>
    public T Deserialize<T>(ReadOnlyMemory<byte> data) => GetSerializer<T>().Deserialize(data.Span);

    /// <summary>Deserializes a payload into a type known at run time.</summary>
    /// <param name="type">The type the payload was written as, or a base contract of it.</param>
    /// <param name="data">The payload.</param>
    /// <returns>The value.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="type"/> is null.</exception>
    /// <exception cref="ProtoException">The payload is malformed, truncated or hostile, or the type cannot be serialized.</exception>
    public object? Deserialize(Type type, ReadOnlyMemory<byte> data) => GetEntry(type).Get().DeserializeObject(data.Span);

    /// <summary>Returns whether values of <paramref name="type"/> can be serialized faithfully by this model.</summary>
    /// <param name="type">The type.</param>
    /// <returns><see langword="true"/> when Serialize and Deserialize will work for the type.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="type"/> is null.</exception>
    public bool CanSerialize(Type type) => CanSerialize(type, out _);

    /// <summary>For the transcoder: serializes after <paramref name="headroom"/> zero bytes left for its header, with no extra copy.</summary>
    internal byte[] Serialize(Type type, object value, int headroom)
    {
        ArgumentNullException.ThrowIfNull(type);
        ArgumentNullException.ThrowIfNull(value);
        ArgumentOutOfRangeException.ThrowIfNegative(headroom);
        if (!type.IsInstanceOfType(value))
        {
            throw new ArgumentException($"The value is a {ThrowHelper.Name(value.GetType())}, not a {ThrowHelper.Name(type)}.", nameof(value));
        }

        return GetEntry(type).Get().SerializeObject(value, headroom);
    }

    /// <summary>For the transcoder: whether a type can be serialized, and if not why (the failure is cached per type).</summary>
    internal bool CanSerialize(Type type, out CacheSerializerException? reason)
    {
        var entry = GetEntry(type);
        reason = entry.Failure?.SourceException as CacheSerializerException;
        return entry.Serializer is not null;
    }

    /// <summary>For the transcoder: the compiled serializer of a type, to hold once per type instead of looking it up per call.</summary>
    /// <exception cref="ProtoException">The type cannot be serialized (the cached failure).</exception>
    internal RootSerializer GetRootSerializer(Type type) => GetEntry(type).Get();

    /// <summary>For the transcoder: the root of a contract's <c>[ProtoInclude]</c> hierarchy (the type itself when it has no base contract).</summary>
    internal Type GetRootContract(Type type)
    {
        ArgumentNullException.ThrowIfNull(type);
        Freeze();
        var root = type;
        while (PlanBuilder.IsContract(root, _options) && PlanBuilder.FindBaseContract(root, _options) is { } parent)
        {
            root = parent;
        }

        return root;
    }

    /// <summary>For the transcoder: every <c>[ProtoInclude]</c> subtype reachable from a contract, at any depth.</summary>
    internal IReadOnlyList<Type> GetSubTypes(Type contract)
    {
        ArgumentNullException.ThrowIfNull(contract);
        Freeze();
        return _subTypes.GetOrAdd(contract, static (type, options) =>
        {
            var found = new List<Type>();
            var pending = new Queue<Type>([type]);
            while (pending.Count > 0)
            {
                var current = pending.Dequeue();
                if (!PlanBuilder.IsContract(current, options))
                {
                    continue;
                }

                foreach (var include in PlanBuilder.Build(current, options).Includes)
                {
                    if (!found.Contains(include.DerivedType))
                    {
                        found.Add(include.DerivedType);
                        pending.Enqueue(include.DerivedType);
                    }
                }
            }

            return found;
        }, _options);
    }

    private RootSerializer<T> GetSerializer<T>()
    {
        var last = SerializerCache<T>.Last;
        if (last is not null && ReferenceEquals(last.Model, this))
        {
            return last.Serializer;
        }

        var serializer = (RootSerializer<T>)GetEntry(typeof(T)).Get();
        if (last is null)
        {
            // The first model to use T keeps the fast slot; another model reads its own dictionary (still lock-free)
            // rather than replacing the slot, so two models used in turn never allocate per call.
            SerializerCache<T>.Last = new SerializerCache<T>.Pair(this, serializer);
        }

        return serializer;
    }

    private Entry GetEntry(Type type)
    {
        ArgumentNullException.ThrowIfNull(type);
        if (_entries.TryGetValue(type, out var entry))
        {
            return entry;
        }

        Freeze();
        lock (_buildLock)
        {
            if (_entries.TryGetValue(type, out entry))
            {
                return entry;
            }

            try
            {
                entry = new Entry(_compiler!.CompileRoot(type), null);
            }
            catch (ProtoException ex)
            {
                entry = new Entry(null, ExceptionDispatchInfo.Capture(ex));
            }

            _entries[type] = entry;
            return entry;
        }
    }

    private void Freeze()
    {
        if (_frozen)
        {
            return;
        }

        lock (_buildLock)
        {
            _compiler ??= new CodecCompiler(_options);
            _frozen = true;
        }
    }

    private void ThrowIfFrozen()
    {
        if (_frozen)
        {
            ThrowHelper.ThrowFrozen();
        }
    }

    private sealed record Entry(RootSerializer? Serializer, ExceptionDispatchInfo? Failure)
    {
        public RootSerializer Get()
        {
            if (Serializer is null)
            {
                // Replays the failure captured when the type was first compiled, without compiling again.
                Failure!.Throw();
            }

            return Serializer;
        }
    }

    /// <summary>A lock-free per-type slot for the first model's serializer (one model per process is the common case).</summary>
    /// <remarks>It holds that model for the life of the process: models are meant to be long-lived, like JsonSerializerOptions.</remarks>
    private static class SerializerCache<T>
    {
        public static Pair? Last;

        public sealed record Pair(ProtoModel Model, RootSerializer<T> Serializer);
    }
}
