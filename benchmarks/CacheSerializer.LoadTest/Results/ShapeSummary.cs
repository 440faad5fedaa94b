namespace CacheSerializer.LoadTest.Results;

/// <summary>One shape of the mix as the report describes it.</summary>
/// <param name="Shape">The shape's name.</param>
/// <param name="Share">Its share of the keys, as configured.</param>
/// <param name="Keys">The keys that hold it in this run.</param>
/// <param name="Description">What its variants are.</param>
internal sealed record ShapeSummary(string Shape, double Share, int Keys, string Description);
