using CacheSerializer.Protobuf;
using FsCheck;
using FsCheck.Fluent;

namespace CacheSerializer.Tests.Protobuf;

/// <summary>FsCheck: whatever graph of the test contracts goes in comes out equal, null and empty members included.</summary>
public class RoundTripPropertyTests
{
    private static readonly ProtoModel s_model = new();

    private static readonly Gen<string?> s_strings = ArbMap.Default.GeneratorFor<string?>()
        .Select(s => s is null ? null : new string(s.Where(c => !char.IsSurrogate(c)).ToArray()));

    private static readonly Gen<string> s_nonNullStrings = s_strings.Select(s => s ?? string.Empty);

    private static readonly Gen<int> s_ints = ArbMap.Default.GeneratorFor<int>();

    private static readonly Gen<long> s_longs = ArbMap.Default.GeneratorFor<long>();

    private static readonly Gen<InnerPoco> s_inner =
        from number in s_ints
        from text in s_strings
        select new InnerPoco { Number = number, Text = text };

    [Fact]
    public void RoundTrip_GeneratedNullEmptyGraphs_ComeBackEqual()
    {
        var graphs =
            from ints in NullEmptyOrFilled(s_ints)
            from words in NullEmptyOrFilled(s_nonNullStrings)
            from text in s_strings
            from map in NullEmptyOrFilled(from k in s_nonNullStrings from v in s_ints select (k, v))
            from set in NullEmptyOrFilled(s_longs)
            from blob in NullEmptyOrFilled(ArbMap.Default.GeneratorFor<byte>())
            from inners in NullEmptyOrFilled(s_inner)
            from high in NullEmptyOrFilled(s_ints)
            select new NullEmptyPoco
            {
                Ints = ints?.ToList(),
                Words = words,
                Text = text,
                Map = map?.DistinctBy(p => p.k).ToDictionary(p => p.k, p => p.v),
                Set = set?.ToHashSet(),
                Blob = blob,
                Inners = inners?.ToList(),
                HighNumbered = high,
            };

        Prop.ForAll(graphs.ToArbitrary(), RoundTripsEqual).QuickCheckThrowOnFailure();
    }

    [Fact]
    public void RoundTrip_GeneratedTreesAndShapes_ComeBackEqual()
    {
        var trees = Gen.Sized(size => Tree(Math.Min(size, 6)));
        var shapes = Gen.OneOf(
            from id in s_ints from label in s_strings from r in ArbMap.Default.GeneratorFor<double>()
            select (ShapePoco)new CirclePoco { Id = id, Label = label, Radius = r },
            from id in s_ints from side in ArbMap.Default.GeneratorFor<double>()
            select (ShapePoco)new SquarePoco { Id = id, Side = side },
            from id in s_ints from label in s_strings from side in ArbMap.Default.GeneratorFor<double>() from corner in ArbMap.Default.GeneratorFor<double>()
            select (ShapePoco)new RoundedSquarePoco { Id = id, Label = label, Side = side, CornerRadius = corner });

        Prop.ForAll(trees.ToArbitrary(), RoundTripsEqual).QuickCheckThrowOnFailure();
        Prop.ForAll(shapes.ToArbitrary(), shape =>
        {
            var back = s_model.Deserialize<ShapePoco>(s_model.Serialize(shape));
            Assert.IsType(shape.GetType(), back);
            Assert.Equivalent(shape, back, strict: true);
            return true;
        }).QuickCheckThrowOnFailure();
    }

    [Fact]
    public void RoundTrip_GeneratedScalars_ComeBackEqual()
    {
        var values =
            from l in s_longs
            from u in ArbMap.Default.GeneratorFor<ulong>()
            from d in ArbMap.Default.GeneratorFor<decimal>()
            from ticks in Gen.Choose(0, int.MaxValue).Select(t => (long)t * 1_234_567L % DateTime.MaxValue.Ticks)
            from kind in Gen.Elements(DateTimeKind.Unspecified, DateTimeKind.Utc, DateTimeKind.Local)
            from span in s_longs
            from n in ArbMap.Default.GeneratorFor<int?>()
            from f in ArbMap.Default.GeneratorFor<float>()
            from c in ArbMap.Default.GeneratorFor<char>()
            select new EverythingPoco
            {
                Long = l,
                ULong = u,
                Decimal = d,
                DateTime = new DateTime(ticks, kind),
                TimeSpan = TimeSpan.FromTicks(span),
                NullableInt = n,
                Float = f,
                Char = c,
                Guid = new Guid((int)l, (short)n.GetValueOrDefault(), 3, 4, 5, 6, 7, 8, 9, 10, 11),
                DateTimeOffset = new DateTimeOffset(new DateTime(ticks), TimeSpan.FromMinutes(n.GetValueOrDefault() % 840)),
            };

        Prop.ForAll(values.ToArbitrary(), RoundTripsEqual).QuickCheckThrowOnFailure();
    }

    private static bool RoundTripsEqual<T>(T value)
    {
        Assert.Equivalent(value, s_model.Deserialize<T>(s_model.Serialize(value)), strict: true);
        return true;
    }

    private static Gen<T[]?> NullEmptyOrFilled<T>(Gen<T> element) => Gen.Frequency(
        (1, Gen.Constant<T[]?>(null)),
        (1, Gen.Constant<T[]?>([])),
        (3, element.ArrayOf().Select(a => (T[]?)a)));

    private static Gen<TreeNode> Tree(int depth) => depth == 0
        ? s_ints.Select(v => new TreeNode { Value = v })
        : from value in s_ints
          from child in Gen.OneOf(Gen.Constant<TreeNode?>(null), Tree(depth - 1).Select(t => (TreeNode?)t))
          from children in NullEmptyOrFilled(Tree(depth / 2))
          select new TreeNode { Value = value, Child = child, Children = children?.ToList() };
}
