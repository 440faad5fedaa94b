using CacheSerializer.Protobuf;

namespace CacheSerializer.Tests.Protobuf;

public class ProtoModelTests
{
    [Fact]
    public void Configure_AfterFirstUse_ThrowsInvalidOperation()
    {
        var model = new ProtoModel();
        model.Serialize(new RpcPoco());

        Assert.Throws<InvalidOperationException>(() => model.AddSubType(typeof(Animal), 9, typeof(Cat)));
        Assert.Throws<InvalidOperationException>(() => model.Add(typeof(TypeSupportTests.Plain), "Name"));
        Assert.Throws<InvalidOperationException>(() => model.AddSurrogate(typeof(TypeSupportTests.Money), typeof(TypeSupportTests.MoneySurrogate)));
        Assert.Throws<InvalidOperationException>(() => model.AllowParseableTypes = false);
    }

    [Fact]
    public void Configure_AfterCanSerialize_ThrowsInvalidOperation()
    {
        var model = new ProtoModel();
        model.CanSerialize(typeof(int));

        Assert.Throws<InvalidOperationException>(() => model.Add(typeof(TypeSupportTests.Plain), "Name"));
    }

    [Fact]
    public void TwoModels_DifferentConfiguration_DoNotAffectEachOther()
    {
        var withCat = new ProtoModel().AddSubType(typeof(Animal), 9, typeof(Cat));
        var plain = new ProtoModel();

        Assert.NotEmpty(withCat.Serialize<Animal>(new Cat()));
        Assert.Throws<ProtoException>(() => plain.Serialize<Animal>(new Cat()));
        Assert.NotEmpty(withCat.Serialize<Animal>(new Cat()));
    }

    [Fact]
    public void Serialize_ManyThreadsFromColdStart_AllAgree()
    {
        var model = new ProtoModel();
        var value = new OuterPoco { First = new InnerPoco { Number = 1 }, Items = [new InnerPoco { Text = "x" }], Name = "n" };
        var expected = new ProtoModel().Serialize(value);
        using var start = new ManualResetEventSlim();
        var results = new byte[16][];
        var threads = Enumerable.Range(0, results.Length).Select(i => new Thread(() =>
        {
            start.Wait();
            results[i] = i % 2 == 0 ? model.Serialize(value) : model.Serialize(typeof(OuterPoco), value);
            var back = model.Deserialize<OuterPoco>(results[i]);
            Assert.Equal(value.Items, back.Items);
        })).ToList();
        threads.ForEach(t => t.Start());

        start.Set();
        threads.ForEach(t => t.Join(TimeSpan.FromSeconds(30)));

        Assert.All(results, r => Assert.Equal(expected, r));
    }

    [Fact]
    public void Serialize_ByTypeWithWrongValue_ThrowsArgument()
    {
        var model = new ProtoModel();

        Assert.Throws<ArgumentException>(() => model.Serialize(typeof(RpcPoco), new EightPoco()));
        Assert.Throws<ArgumentNullException>(() => model.Serialize(typeof(RpcPoco), null!));
    }

    [Fact]
    public void CanSerializeInternal_FailingType_ReturnsCachedReason()
    {
        var model = new ProtoModel();

        Assert.False(model.CanSerialize(typeof(HoldsOrderList), out var first));
        Assert.False(model.CanSerialize(typeof(HoldsOrderList), out var second));

        Assert.IsType<ProtoException>(first);
        Assert.Same(first, second);
        Assert.Contains("OrderList", first!.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(typeof(int))]
    [InlineData(typeof(string))]
    [InlineData(typeof(List<RpcPoco>))]
    [InlineData(typeof(Dictionary<string, InnerPoco>))]
    [InlineData(typeof(Animal))]
    [InlineData(typeof(Dog))]
    [InlineData(typeof(Guid?))]
    public void CanSerialize_SupportedTypes_True(Type type)
    {
        Assert.True(new ProtoModel().CanSerialize(type, out var reason));
        Assert.Null(reason);
    }

    [Theory]
    [InlineData(typeof(object))]
    [InlineData(typeof(Cat))]
    [InlineData(typeof(OrderList))]
    [InlineData(typeof(DuplicateNumber))]
    [InlineData(typeof(List<List<int>>))]
    public void CanSerialize_UnsupportedTypes_False(Type type)
    {
        Assert.False(new ProtoModel().CanSerialize(type));
    }

    [Fact]
    public void GetRootContract_Subtype_ReturnsHierarchyRoot()
    {
        var model = new ProtoModel();

        Assert.Equal(typeof(Animal), model.GetRootContract(typeof(Dog)));
        Assert.Equal(typeof(ShapePoco), model.GetRootContract(typeof(RoundedSquarePoco)));
        Assert.Equal(typeof(RpcPoco), model.GetRootContract(typeof(RpcPoco)));
    }

    [Fact]
    public void GetSubTypes_Root_ReturnsEveryReachableInclude()
    {
        var model = new ProtoModel().AddSubType(typeof(Animal), 9, typeof(Cat));

        Assert.Equal([typeof(CirclePoco), typeof(SquarePoco), typeof(RoundedSquarePoco)], model.GetSubTypes(typeof(ShapePoco)));
        Assert.Equal([typeof(Mammal), typeof(Cat), typeof(Dog)], model.GetSubTypes(typeof(Animal)));
        Assert.Empty(model.GetSubTypes(typeof(RpcPoco)));
    }

    [Fact]
    public void Serialize_PayloadArray_IsExactlyThePayloadSize()
    {
        var model = new ProtoModel();
        var value = new RpcPoco { Id = 1, Method = "m" };

        var bytes = model.Serialize(value);

        Assert.Equal(new byte[] { 0x08, 0x01, 0x1A, 0x01, 0x6D }, bytes);
    }

    [Fact]
    public void Serialize_Warm_AllocatesOnlyThePayloadArray()
    {
        var model = new ProtoModel();
        var flat = new RpcPoco { Id = 1, Method = "m", Host = "h", Body = "b" };
        var nested = new OuterPoco { First = new InnerPoco { Number = 1 }, Items = [new InnerPoco(), new InnerPoco { Text = "t" }], Ratio = 2 };
        model.Serialize(flat);
        model.Serialize(nested);

        long before = GC.GetAllocatedBytesForCurrentThread();
        var flatBytes = model.Serialize(flat);
        long flatAllocated = GC.GetAllocatedBytesForCurrentThread() - before;
        before = GC.GetAllocatedBytesForCurrentThread();
        var nestedBytes = model.Serialize(nested);
        long nestedAllocated = GC.GetAllocatedBytesForCurrentThread() - before;

        // A byte[] costs 24 bytes of header and length on 64-bit, plus its data rounded up to 8.
        Assert.Equal(ArraySize(flatBytes.Length), flatAllocated);
        Assert.Equal(ArraySize(nestedBytes.Length), nestedAllocated);

        static long ArraySize(int length) => 24 + ((length + 7) / 8 * 8);
    }

    [Fact]
    public void Deserialize_Warm_AllocatesOnlyTheObject()
    {
        var model = new ProtoModel();
        var bytes = model.Serialize(new EightPoco { A = 1, H = 2 });
        model.Deserialize<EightPoco>(bytes);

        long before = GC.GetAllocatedBytesForCurrentThread();
        model.Deserialize<EightPoco>(bytes);
        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;

        // The instance alone: 16 bytes of header and method table plus eight ulongs; no frame, box or stream.
        Assert.Equal(16 + (8 * 8), allocated);
    }

    [Fact]
    public void Serialize_TwoModelsInTurn_NeitherAllocatesMoreThanThePayload()
    {
        var first = new ProtoModel();
        var second = new ProtoModel();
        var value = new PersonV1 { Name = "n", Age = 3 };
        first.Serialize(value);
        second.Serialize(value);

        long before = GC.GetAllocatedBytesForCurrentThread();
        var a = first.Serialize(value);
        var b = second.Serialize(value);
        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;

        Assert.Equal(a, b);
        Assert.Equal(2 * (24 + ((a.Length + 7) / 8 * 8)), allocated);
    }
}
