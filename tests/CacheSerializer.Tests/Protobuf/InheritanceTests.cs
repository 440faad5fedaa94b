using CacheSerializer.Protobuf;

namespace CacheSerializer.Tests.Protobuf;

public class InheritanceTests
{
    private readonly ProtoModel _model = new();

    [Fact]
    public void Serialize_ThreeLevels_SubMessagesNestedFromRootBeforeOwnFields()
    {
        var bytes = _model.Serialize<Animal>(new Dog { Name = "Rex", Legs = 4, GoodBoy = true });

        // Animal: field 5 (Mammal) first: { field 6 (Dog) { 1: true }, 1: 4 }, then Animal's own field 1 "Rex".
        Assert.Equal(new byte[] { 0x2A, 0x06, 0x32, 0x02, 0x08, 0x01, 0x08, 0x04, 0x0A, 0x03, 0x52, 0x65, 0x78 }, bytes);
    }

    [Fact]
    public void DeserializeGeneric_ThreeLevels_ReturnsDeepestTypeWithEveryLevel()
    {
        var bytes = _model.Serialize<Animal>(new Dog { Name = "Rex", Legs = 4, GoodBoy = true });

        var dog = Assert.IsType<Dog>(_model.Deserialize<Animal>(bytes));

        Assert.Equal(("Rex", 4, true), (dog.Name, dog.Legs, dog.GoodBoy));
    }

    [Fact]
    public void DeserializeByType_ThreeLevels_ReturnsDeepestTypeWithEveryLevel()
    {
        var bytes = _model.Serialize(typeof(Animal), new Dog { Name = "Rex", Legs = 4, GoodBoy = true });

        var dog = Assert.IsType<Dog>(_model.Deserialize(typeof(Animal), bytes));

        Assert.Equal(("Rex", 4, true), (dog.Name, dog.Legs, dog.GoodBoy));
    }

    [Fact]
    public void Serialize_AsDerivedType_WritesFromTheRoot()
    {
        var asRoot = _model.Serialize<Animal>(new Dog { Name = "a", Legs = 2 });

        Assert.Equal(asRoot, _model.Serialize(new Dog { Name = "a", Legs = 2 }));
        Assert.Equal(asRoot, _model.Serialize(typeof(Mammal), new Dog { Name = "a", Legs = 2 }));
        Assert.IsType<Dog>(_model.Deserialize<Mammal>(asRoot));
        Assert.IsType<Dog>(_model.Deserialize(typeof(Dog), asRoot));
    }

    [Fact]
    public void Deserialize_ReaderKnowingFewerLevels_GetsDeepestTypeItKnows()
    {
        var bytes = _model.Serialize<Animal>(new Dog { Name = "Rex", Legs = 4, GoodBoy = true });
        var older = new ProtoModel().Add(typeof(OldAnimal), "Name").AddSubType(typeof(OldAnimal), 5, typeof(OldMammal)).Add(typeof(OldMammal), "Legs");

        var mammal = Assert.IsType<OldMammal>(older.Deserialize<OldAnimal>(bytes));

        Assert.Equal(("Rex", 4), (mammal.Name, mammal.Legs));
    }

    [Fact]
    public void Deserialize_AsSubtypeButPayloadIsBase_Throws()
    {
        var bytes = _model.Serialize(new Animal { Name = "generic" });

        var ex = Assert.Throws<ProtoException>(() => _model.Deserialize<Dog>(bytes));

        Assert.Contains("CacheSerializer.Tests.Protobuf.Animal", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Serialize_UndeclaredSubtype_ThrowsNamingBaseDerivedAndFix()
    {
        var ex = Assert.Throws<ProtoException>(() => _model.Serialize<Animal>(new Cat { Name = "Tom", Lives = 9 }));

        Assert.Contains("CacheSerializer.Tests.Protobuf.Cat", ex.Message, StringComparison.Ordinal);
        Assert.Contains("CacheSerializer.Tests.Protobuf.Animal", ex.Message, StringComparison.Ordinal);
        Assert.Contains("[ProtoInclude(<field number>, typeof(Cat))] on Animal", ex.Message, StringComparison.Ordinal);
        Assert.Contains("model.AddSubType(typeof(Animal), <field number>, typeof(Cat))", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Serialize_UndeclaredSubtypeAsItsOwnType_Throws()
    {
        var ex = Assert.Throws<ProtoException>(() => _model.Serialize(new Cat { Name = "Tom" }));

        Assert.Contains("AddSubType(typeof(Animal)", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Serialize_SubtypeAddedByModel_RoundTrips()
    {
        var model = new ProtoModel().AddSubType(typeof(Animal), 9, typeof(Cat)).Add(typeof(Cat), "Lives");

        var back = Assert.IsType<Cat>(model.Deserialize<Animal>(model.Serialize<Animal>(new Cat { Name = "Tom", Lives = 9 })));

        Assert.Equal(("Tom", 9), (back.Name, back.Lives));
    }

    [Fact]
    public void Serialize_DuplicateNumberAcrossIncludeAndMember_ThrowsNamingTypeAndNumber()
    {
        var ex = Assert.Throws<ProtoException>(() => _model.Serialize(new DuplicateNumber()));

        Assert.Contains("CacheSerializer.Tests.Protobuf.DuplicateNumber uses field number 1 twice", ex.Message, StringComparison.Ordinal);
        Assert.False(_model.CanSerialize(typeof(DuplicateNumber)));
    }

    [Fact]
    public void Deserialize_OnDeserializedCallback_RunsAfterAllLevels()
    {
        var bytes = _model.Serialize<ShapePoco>(new RoundedSquarePoco { Id = 1, Side = 2, CornerRadius = 3 });

        var back = Assert.IsType<RoundedSquarePoco>(_model.Deserialize<ShapePoco>(bytes));

        Assert.True(back.AfterDeserializationRan());
    }

    public class OldAnimal
    {
        public string? Name { get; set; }
    }

    public class OldMammal : OldAnimal
    {
        public int Legs { get; set; }
    }
}
