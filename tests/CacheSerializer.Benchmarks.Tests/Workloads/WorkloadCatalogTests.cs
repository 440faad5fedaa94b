using CacheSerializer.Workloads;
using CacheSerializer.Workloads.Contenders;

namespace CacheSerializer.Benchmarks.Tests.Workloads;

public class WorkloadCatalogTests
{
    [Fact]
    public void All_Catalog_IsTheObjectsThenThePrimitivesWithUniqueNamesWithoutSpaces()
    {
        Assert.Equal(WorkloadCatalog.Objects.Concat(WorkloadCatalog.Primitives), WorkloadCatalog.All);
        Assert.Equal(
            ["RpcMessage", "EightUInt64s", "Records1", "Records32", "Records1024", "Folders", "LargeObject",
             "Int32", "Int64", "Double", "DateTime", "String40", "Bytes1K", "Bytes100K"],
            WorkloadCatalog.All.Select(w => w.Name));
        Assert.All(WorkloadCatalog.Objects, w => Assert.Equal(WorkloadKind.Object, w.Kind));
        Assert.All(WorkloadCatalog.Primitives, w => Assert.Equal(WorkloadKind.Primitive, w.Kind));
    }

    [Fact]
    public void Get_UnknownName_ThrowsArgumentExceptionListingTheKnownNames()
    {
        ArgumentException ex = Assert.Throws<ArgumentException>(() => WorkloadCatalog.Get("Nope"));

        Assert.Contains("RpcMessage", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void InputFor_EachInput_IsTheValueTheMessageOrTheProtobufBytes()
    {
        Workload workload = WorkloadCatalog.Get("RpcMessage");

        Assert.Same(workload.Value, workload.InputFor(ContenderInput.Value));
        Assert.Same(workload.Message, workload.InputFor(ContenderInput.ProtobufMessage));
        Assert.Equal(Google.Protobuf.MessageExtensions.ToByteArray(workload.Message), (byte[])workload.InputFor(ContenderInput.Payload));
        Assert.Same(WorkloadCatalog.Get("Int32").Value, WorkloadCatalog.Get("Int32").InputFor(ContenderInput.Payload));
    }

    [Fact]
    public void ContenderCatalog_Names_AreUniqueWithoutSpacesAndBsonComesFirst()
    {
        string[] names = [.. ContenderCatalog.All.Select(c => c.Name)];

        Assert.Equal(ContenderCatalog.Bson, names[0]);
        Assert.Equal(names.Length, names.Distinct().Count());
        Assert.DoesNotContain(names, n => n.Contains(' ', StringComparison.Ordinal));
    }
}
