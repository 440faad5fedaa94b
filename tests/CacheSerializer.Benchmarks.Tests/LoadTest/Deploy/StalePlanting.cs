using System.Globalization;
using System.Text.RegularExpressions;
using CacheSerializer.LoadTest.Deploy.Models;

namespace CacheSerializer.Benchmarks.Tests.LoadTest.Deploy;

/// <summary>The one stale value of a run: which key it was planted in and which version it replaced.</summary>
/// <param name="fromVersion">The lowest version a read must find to be planted in (at least 3). The higher it is, the
/// more updates a read that found it would have had to wait out for version 1 not to be stale for it: on a machine
/// so loaded that one read spans an update and a fill (a 2-core machine at load 20), 3 is not enough.</param>
internal sealed partial class StalePlanting(int fromVersion = 3)
{
    private int _planted;

    /// <summary>Gets the lowest version a read must find to be planted in.</summary>
    public int FromVersion => fromVersion;

    /// <summary>Gets the number of the key whose read got the planted value (-1: none yet).</summary>
    public int Key { get; private set; } = -1;

    /// <summary>Gets the version the read found in memcached, which the planted version 1 replaced.</summary>
    public int Replaced { get; private set; }

    /// <summary>Turns the first product read at <see cref="FromVersion"/> or later into version 1 of its key, in place. Version 3 or
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
        if (product is not { Name: { } name } || VersionOf(name) < fromVersion || Interlocked.Exchange(ref _planted, 1) == 1)
        {
            return;
        }

        Replaced = VersionOf(name);
        Key = product.Value.Id;
        string stale = string.Create(CultureInfo.InvariantCulture, $"product {Key} v1");
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
