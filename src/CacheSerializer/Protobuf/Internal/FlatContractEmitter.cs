using System.Reflection;
using System.Reflection.Emit;
using System.Runtime.CompilerServices;
using Google.Protobuf;

namespace CacheSerializer.Protobuf.Internal;

/// <summary>Measures the fields of a flat contract.</summary>
internal delegate int FlatMeasure<T>(T value);

/// <summary>Writes the fields of a flat contract.</summary>
internal delegate void FlatWrite<T>(ref WriteContext ctx, T value);

/// <summary>Reads the fields of a flat contract into <paramref name="existing"/>, or a new instance when it is null.</summary>
internal delegate T FlatRead<T>(ref ParseContext ctx, T existing);

/// <summary>The three emitted bodies of a flat contract.</summary>
internal sealed record FlatBody<T>(FlatMeasure<T> Measure, FlatWrite<T> Write, FlatRead<T> Read);

/// <summary>
/// Emits straight-line IL for "flat" contracts (every member a hot scalar: bool, int, uint, long, ulong, float, double,
/// string; no subtypes), the shape of most cached DTOs and of each element of a record list. The emitted code is what the
/// member codecs do, without a virtual call or delegate per member: for each member, a getter call and the format's
/// static methods (<see cref="Int32Format"/> and friends, which the JIT inlines); on read, one switch over the tags.
/// </summary>
/// <remarks>
/// Expression trees cannot take Google.Protobuf's <c>WriteContext</c>/<c>ParseContext</c> (ref structs), hence IL here;
/// everything else in the compiler stays expression trees. A contract this cannot handle keeps its member codecs.
/// </remarks>
internal static class FlatContractEmitter
{
    private static readonly MethodInfo s_writeTag = typeof(WriteContext).GetMethod(nameof(WriteContext.WriteTag), [typeof(uint)])!;
    private static readonly MethodInfo s_readTag = typeof(ParseContext).GetMethod(nameof(ParseContext.ReadTag), Type.EmptyTypes)!;
    private static readonly MethodInfo s_skip = typeof(FieldSkipper).GetMethod(nameof(FieldSkipper.Skip))!;
    private static readonly MethodInfo s_uninitialized = typeof(RuntimeHelpers).GetMethod(nameof(RuntimeHelpers.GetUninitializedObject))!;
    private static readonly MethodInfo s_typeFromHandle = typeof(Type).GetMethod(nameof(Type.GetTypeFromHandle))!;

    /// <summary>Returns the emitted bodies, or null when the contract is not flat.</summary>
    public static FlatBody<T>? TryEmit<T>(ContractPlan plan, IReadOnlyDictionary<Type, Type> formats)
    {
        if (plan.Includes.Count > 0 || plan.Members.Count == 0 || typeof(T).IsAbstract || typeof(T).IsInterface)
        {
            return null;
        }

        foreach (var member in plan.Members)
        {
            if (!formats.ContainsKey(member.MemberType) || !member.CanWrite)
            {
                return null;
            }
        }

        return new FlatBody<T>(EmitMeasure<T>(plan, formats), EmitWrite<T>(plan, formats), EmitRead<T>(plan, formats));
    }

    private static FlatMeasure<T> EmitMeasure<T>(ContractPlan plan, IReadOnlyDictionary<Type, Type> formats)
    {
        var method = NewMethod<T>("Measure", typeof(int), [typeof(T)]);
        var il = method.GetILGenerator();
        var size = il.DeclareLocal(typeof(int));
        foreach (var member in plan.Members)
        {
            var format = formats[member.MemberType];
            var value = il.DeclareLocal(member.MemberType);
            var skip = il.DefineLabel();
            EmitGet<T>(il, member, valueArg: 0);
            il.Emit(OpCodes.Stloc, value);
            il.Emit(OpCodes.Ldloc, value);
            il.Emit(OpCodes.Call, format.GetMethod("IsDefault")!);
            il.Emit(OpCodes.Brtrue, skip);
            il.Emit(OpCodes.Ldloc, size);
            il.Emit(OpCodes.Ldc_I4, CodedOutputStream.ComputeTagSize(member.FieldNumber));
            il.Emit(OpCodes.Add);
            il.Emit(OpCodes.Ldloc, value);
            il.Emit(OpCodes.Call, format.GetMethod("Measure")!);
            il.Emit(OpCodes.Add);
            il.Emit(OpCodes.Stloc, size);
            il.MarkLabel(skip);
        }

        il.Emit(OpCodes.Ldloc, size);
        il.Emit(OpCodes.Ret);
        return method.CreateDelegate<FlatMeasure<T>>();
    }

    private static FlatWrite<T> EmitWrite<T>(ContractPlan plan, IReadOnlyDictionary<Type, Type> formats)
    {
        var method = NewMethod<T>("Write", typeof(void), [typeof(WriteContext).MakeByRefType(), typeof(T)]);
        var il = method.GetILGenerator();
        foreach (var member in plan.Members)
        {
            var format = formats[member.MemberType];
            var value = il.DeclareLocal(member.MemberType);
            var skip = il.DefineLabel();
            EmitGet<T>(il, member, valueArg: 1);
            il.Emit(OpCodes.Stloc, value);
            il.Emit(OpCodes.Ldloc, value);
            il.Emit(OpCodes.Call, format.GetMethod("IsDefault")!);
            il.Emit(OpCodes.Brtrue, skip);
            il.Emit(OpCodes.Ldarg_0);
            il.Emit(OpCodes.Ldc_I4, (int)WireFormat.MakeTag(member.FieldNumber, WireTypeOf(format)));
            il.Emit(OpCodes.Call, s_writeTag);
            il.Emit(OpCodes.Ldarg_0);
            il.Emit(OpCodes.Ldloc, value);
            il.Emit(OpCodes.Call, format.GetMethod("Write")!);
            il.MarkLabel(skip);
        }

        il.Emit(OpCodes.Ret);
        return method.CreateDelegate<FlatWrite<T>>();
    }

    private static FlatRead<T> EmitRead<T>(ContractPlan plan, IReadOnlyDictionary<Type, Type> formats)
    {
        var type = typeof(T);
        var method = NewMethod<T>("Read", type, [typeof(ParseContext).MakeByRefType(), type]);
        var il = method.GetILGenerator();
        var obj = il.DeclareLocal(type);
        var tag = il.DeclareLocal(typeof(uint));
        var loop = il.DefineLabel();
        var end = il.DefineLabel();

        il.Emit(OpCodes.Ldarg_1);
        il.Emit(OpCodes.Stloc, obj);
        if (!type.IsValueType)
        {
            // A flat contract has no subtype to wait for: create the instance up front unless merging into one.
            var haveInstance = il.DefineLabel();
            il.Emit(OpCodes.Ldloc, obj);
            il.Emit(OpCodes.Brtrue, haveInstance);
            var constructor = type.GetConstructor(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic, Type.EmptyTypes);
            if (constructor is not null && !plan.SkipConstructor && !type.IsAbstract)
            {
                il.Emit(OpCodes.Newobj, constructor);
            }
            else
            {
                il.Emit(OpCodes.Ldtoken, type);
                il.Emit(OpCodes.Call, s_typeFromHandle);
                il.Emit(OpCodes.Call, s_uninitialized);
                il.Emit(OpCodes.Castclass, type);
            }

            il.Emit(OpCodes.Stloc, obj);
            il.MarkLabel(haveInstance);
        }

        il.MarkLabel(loop);
        il.Emit(OpCodes.Ldarg_0);
        il.Emit(OpCodes.Call, s_readTag);
        il.Emit(OpCodes.Dup);
        il.Emit(OpCodes.Stloc, tag);
        il.Emit(OpCodes.Brfalse, end);
        foreach (var member in plan.Members)
        {
            var format = formats[member.MemberType];
            var next = il.DefineLabel();
            il.Emit(OpCodes.Ldloc, tag);
            il.Emit(OpCodes.Ldc_I4, (int)WireFormat.MakeTag(member.FieldNumber, WireTypeOf(format)));
            il.Emit(OpCodes.Bne_Un, next);
            il.Emit(type.IsValueType ? OpCodes.Ldloca : OpCodes.Ldloc, obj);
            il.Emit(OpCodes.Ldarg_0);
            il.Emit(OpCodes.Call, format.GetMethod("Read")!);
            EmitSet(il, member);
            il.Emit(OpCodes.Br, loop);
            il.MarkLabel(next);
        }

        // Not a member's tag (unknown field, or a member's number with another wire type): an end-group closes the
        // message (the caller checks it was expected); anything else is skipped.
        var notEndGroup = il.DefineLabel();
        il.Emit(OpCodes.Ldloc, tag);
        il.Emit(OpCodes.Ldc_I4_7);
        il.Emit(OpCodes.And);
        il.Emit(OpCodes.Ldc_I4_4);
        il.Emit(OpCodes.Bne_Un, notEndGroup);
        il.Emit(OpCodes.Br, end);
        il.MarkLabel(notEndGroup);
        il.Emit(OpCodes.Ldarg_0);
        il.Emit(OpCodes.Ldloc, tag);
        il.Emit(OpCodes.Call, s_skip);
        il.Emit(OpCodes.Br, loop);

        il.MarkLabel(end);
        il.Emit(OpCodes.Ldloc, obj);
        il.Emit(OpCodes.Ret);
        return method.CreateDelegate<FlatRead<T>>();
    }

    private static void EmitGet<T>(ILGenerator il, MemberPlan member, int valueArg)
    {
        bool isStruct = typeof(T).IsValueType;
        il.Emit(isStruct ? OpCodes.Ldarga_S : OpCodes.Ldarg_S, (byte)valueArg);
        switch (member.Member)
        {
            case FieldInfo field:
                il.Emit(OpCodes.Ldfld, field);
                break;
            case PropertyInfo property:
                il.Emit(isStruct || property.GetMethod!.IsStatic ? OpCodes.Call : OpCodes.Callvirt, property.GetMethod!);
                break;
        }
    }

    private static void EmitSet(ILGenerator il, MemberPlan member)
    {
        switch (member.Member)
        {
            case FieldInfo field:
                il.Emit(OpCodes.Stfld, field);
                break;
            case PropertyInfo property:
                il.Emit(property.DeclaringType!.IsValueType ? OpCodes.Call : OpCodes.Callvirt, property.SetMethod!);
                break;
        }
    }

    private static WireFormat.WireType WireTypeOf(Type format)
        => (WireFormat.WireType)format.GetProperty("WireType", BindingFlags.Public | BindingFlags.Static)!.GetValue(null)!;

    private static DynamicMethod NewMethod<T>(string name, Type returnType, Type[] parameters)
        => new($"{typeof(T).Name}.Flat{name}", returnType, parameters, typeof(T).Module, skipVisibility: true);
}
