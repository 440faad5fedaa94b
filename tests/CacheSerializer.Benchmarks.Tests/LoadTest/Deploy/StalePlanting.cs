using System.Globalization;
using System.Text.RegularExpressions;
using CacheSerializer.LoadTest.Deploy.Models;

namespace CacheSerializer.Benchmarks.Tests.LoadTest.Deploy;

/// <summary>The stale values of a run: which keys they were planted in and which version the first replaced.</summary>
/// <param name="fromVersion">The lowest version a read must find to be planted in (at least 3). The higher it is, the
/// more updates a read that found it would have had to wait out for version 1 not to be stale for it: on a machine
/// so loaded that one read spans an update and a fill (a 2-core machine at load 20), 3 is not enough.</param>
/// <param name="plants">How many reads, of distinct keys, are planted in: more than one where a read may wait long
/// (a <c>GetOrCreateAsync</c> caller polling for another caller's factory), so that at least one began after version 1's
/// invalidation.</param>
internal sealed partial class StalePlanting(int fromVersion = 3, int plants = 1)
{
    private readonly List<int> _keys = [];

    /// <summary>Gets the lowest version a read must find to be planted in.</summary>
    public int FromVersion => fromVersion;

    /// <summary>Gets the number of the key whose read got the first planted value (-1: none yet).</summary>
    public int Key { get; private set; } = -1;

    /// <summary>Gets the numbers of the keys whose reads got a planted value, in the order planted.</summary>
    public IReadOnlyList<int> Keys
    {
        get
        {
            lock (_keys)
            {
                return [.. _keys];
            }
        }
    }

    /// <summary>Gets the version the read found in memcached, which the planted version 1 replaced.</summary>
    public int Replaced { get; private set; }

    /// <summary>Turns the first product reads at <see cref="FromVersion"/> or later (one per key, as many as asked) into version 1 of its key, in place. Version 3 or
    /// later: the delete or overwrite made for version 2 had completed before that version was written, so before any
    /// read that found it began (unless that read waited out a whole update and fill), and version 1 is stale for it.</summary>
    public void Plant(object? value)
    {
        (int Id, string? Name)? product = value switch
        {
            ChangeNone.V1 v1 => (v1.Id, v1.Name),
            ChangeNone.V2 v2 => (v2.Id, v2.Name),
            _ => null,
        };
        if (product is not { Name: { } name } || VersionOf(name) < fromVersion)
        {
            return;
        }

        int id = product.Value.Id;
        lock (_keys)
        {
            if (_keys.Count == plants || _keys.Contains(id))
            {
                return;
            }

            _keys.Add(id);
            if (_keys.Count == 1)
            {
                Replaced = VersionOf(name);
                Key = id;
            }
        }

        string stale = string.Create(CultureInfo.InvariantCulture, $"product {id} v1");
        if (value is ChangeNone.V1 build1)
        {
            build1.Name = stale;
        }
        else
        {
            ((ChangeNone.V2)value!).Name = stale;
        }
    }

    private static int VersionOf(string name) =>
        ProductName().Match(name) is { Success: true } match ? int.Parse(match.Groups[1].Value, CultureInfo.InvariantCulture) : 0;

    [GeneratedRegex("^product [0-9]+ v([0-9]+)$", RegexOptions.CultureInvariant)]
    private static partial Regex ProductName();
}
