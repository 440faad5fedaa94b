using CacheSerializer.Transcoding;

namespace CacheSerializer.Tests.Transcoding;

public class StableTypeNameTests
{
    public static IEnumerable<object[]> Names =>
    [
        [typeof(int), "System.Int32"],
        [typeof(StableTypeNameTests), "CacheSerializer.Tests.Transcoding.StableTypeNameTests"],
        [typeof(Nested), "CacheSerializer.Tests.Transcoding.StableTypeNameTests+Nested"],
        [typeof(Dictionary<string, List<int>>), "System.Collections.Generic.Dictionary`2[System.String,System.Collections.Generic.List`1[System.Int32]]"],
        [typeof(int[]), "System.Int32[]"],
        [typeof(string[,]), "System.String[,]"],
        [typeof(List<Nested>[]), "System.Collections.Generic.List`1[CacheSerializer.Tests.Transcoding.StableTypeNameTests+Nested][]"],
    ];

    [Theory]
    [MemberData(nameof(Names))]
    public void Of_Type_IsNamespaceQualifiedWithoutAssemblyOrVersion(Type type, string expected)
    {
        Assert.Equal(expected, StableTypeName.Of(type));
    }

    public sealed class Nested
    {
    }
}
