using System.Linq.Expressions;
using System.Reflection;
using System.Runtime.CompilerServices;
using System.Runtime.Serialization;

namespace CacheSerializer.Protobuf.Internal;

/// <summary>Compiles member access, construction and callbacks into delegates with expression trees, once per member.</summary>
internal static class Accessors
{
    public static Func<TOwner, TValue> Getter<TOwner, TValue>(MemberInfo member)
    {
        var owner = Expression.Parameter(typeof(TOwner), "owner");
        Expression access = Expression.MakeMemberAccess(owner, member);
        if (access.Type != typeof(TValue))
        {
            access = Expression.Convert(access, typeof(TValue));
        }

        return Expression.Lambda<Func<TOwner, TValue>>(access, owner).Compile();
    }

    /// <summary>Returns a setter, or null when the member cannot be assigned (get-only property, readonly field).</summary>
    /// <remarks>Private setters, init-only setters and private fields are all reachable: compiled lambdas skip visibility checks.</remarks>
    public static Setter<TOwner, TValue>? Setter<TOwner, TValue>(MemberInfo member)
    {
        if (member is PropertyInfo { SetMethod: null } || member is FieldInfo { IsInitOnly: true })
        {
            return null;
        }

        var owner = Expression.Parameter(typeof(TOwner).MakeByRefType(), "owner");
        var value = Expression.Parameter(typeof(TValue), "value");
        var target = Expression.MakeMemberAccess(owner, member);
        Expression assigned = target.Type == typeof(TValue) ? value : Expression.Convert(value, target.Type);
        return Expression.Lambda<Setter<TOwner, TValue>>(Expression.Assign(target, assigned), owner, value).Compile();
    }

    /// <summary>Returns a factory: the parameterless constructor, or an uninitialized instance for SkipConstructor (or none).</summary>
    public static Func<T>? Creator<T>(bool skipConstructor)
    {
        var type = typeof(T);
        if (type.IsAbstract || type.IsInterface)
        {
            return null;
        }

        if (type.IsValueType)
        {
            return () => default!;
        }

        var constructor = type.GetConstructor(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic, Type.EmptyTypes);
        if (skipConstructor || constructor is null)
        {
            // Like protobuf-net's SkipConstructor; also used for types with no parameterless constructor (records with a
            // primary constructor), whose members are then all set from the payload.
            return () => (T)RuntimeHelpers.GetUninitializedObject(type);
        }

        return Expression.Lambda<Func<T>>(Expression.New(constructor)).Compile();
    }

    /// <summary>Compiles the <c>[OnDeserialized]</c> methods of one level into one delegate (null when there are none).</summary>
    public static Action<T>? Callbacks<T>(IReadOnlyList<MethodInfo> methods)
    {
        if (methods.Count == 0)
        {
            return null;
        }

        var target = Expression.Parameter(typeof(T), "value");
        var calls = new List<Expression>();
        foreach (var method in methods)
        {
            var parameters = method.GetParameters();
            var arguments = parameters.Length == 1 && parameters[0].ParameterType == typeof(StreamingContext)
                ? new Expression[] { Expression.Default(typeof(StreamingContext)) }
                : parameters.Length == 0 ? [] : throw new ProtoException(
                    $"{ThrowHelper.Name(typeof(T))}.{method.Name} is an [OnDeserialized] callback but takes parameters other than one StreamingContext.");
            calls.Add(Expression.Call(target, method, arguments));
        }

        return Expression.Lambda<Action<T>>(Expression.Block(calls), target).Compile();
    }

    /// <summary>Compiles a conversion through user-defined operators (declared on either type), or null if there is none.</summary>
    public static Func<TFrom, TTo>? Converter<TFrom, TTo>()
    {
        var from = Expression.Parameter(typeof(TFrom), "from");
        try
        {
            return Expression.Lambda<Func<TFrom, TTo>>(Expression.Convert(from, typeof(TTo)), from).Compile();
        }
        catch (InvalidOperationException)
        {
            return null;
        }
    }
}
