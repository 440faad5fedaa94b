using System.CommandLine;
using CacheSerializer.LoadTest.Floor;
using CacheSerializer.LoadTest.Mix;
using CacheSerializer.LoadTest.Running;
using CacheSerializer.Workloads.Contenders;

namespace CacheSerializer.LoadTest.Cli;

/// <summary>The <c>floor</c> command: the bytes floor of the load test's mix (docs/benchmarks.md, "Compression by default").</summary>
internal static class FloorCommand
{
    private static readonly LoadTestSettings Defaults = new();

    private static readonly Option<LoadProfile> ProfileOption = new("--profile")
    {
        Description = "The mix: default or seed.",
        DefaultValueFactory = _ => LoadProfile.Default,
    };

    private static readonly Option<int?> KeysOption = new("--keys")
    {
        Description = "Size of the key space (default: the profile's, 500 or 64).",
    };

    private static readonly Option<ulong> SeedOption = new("--seed")
    {
        Description = "Seed of the key-to-shape assignment and the values.",
        DefaultValueFactory = _ => Defaults.Seed,
    };

    private static readonly Option<string?> ContendersOption = new("--contenders")
    {
        Description = "Comma-separated contenders sized beside the floor, the first the reference of the ratios (default: BinaryFormatter+Deflate, "
            + "this transcoder's defaults, uncompressed and with each compression setting).",
        HelpName = "names",
    };

    /// <summary>The contenders of the table when none are named: the reference first, then the package's settings.</summary>
    public static readonly IReadOnlyList<string> DefaultContenders =
    [
        ContenderCatalog.DeflateBinaryFormatter,
        ContenderCatalog.CacheSerializer,
        ContenderCatalog.CacheSerializerUncompressed,
        ContenderCatalog.CacheSerializerLz4,
        ContenderCatalog.CacheSerializerLz4High,
        ContenderCatalog.CacheSerializerZstandard,
        ContenderCatalog.CacheSerializerZstandard3,
        ContenderCatalog.CacheSerializerCompressed,
        ContenderCatalog.CacheSerializerDeflate,
    ];

    /// <summary>Builds the <c>floor</c> command.</summary>
    /// <returns>The command.</returns>
    public static Command Create()
    {
        var command = new Command(
            "floor",
            "The bytes floor of the mix: every key's item (the uncompressed transcoder's payload), each alone, through xz -9e and zstd -19, "
            + "summed, beside the contenders' bytes for the same items; no memcached needed (scripts/floor.sh installs xz and zstd).");
        foreach (Option option in new Option[] { ProfileOption, KeysOption, SeedOption, ContendersOption })
        {
            command.Options.Add(option);
        }

        command.SetAction(RunAsync);
        return command;
    }

    private static async Task<int> RunAsync(ParseResult result, CancellationToken cancellationToken)
    {
        LoadTestSettings settings = Defaults.ForProfile(result.GetValue(ProfileOption));
        int keys = result.GetValue(KeysOption) ?? settings.Keys;
        string? names = result.GetValue(ContendersOption);
        IReadOnlyList<Contender> contenders;
        try
        {
            if (keys < 1)
            {
                throw new ArgumentException($"--keys must be at least 1, not {keys}.");
            }

            contenders = LoadTestRunner.SelectContenders(
                string.IsNullOrWhiteSpace(names) ? DefaultContenders : names.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries),
                settings.Profile,
                settings.MaxItemBytes);
        }
        catch (ArgumentException ex)
        {
            await Console.Error.WriteLineAsync($"error: {ex.Message}").ConfigureAwait(false);
            return LoadTestCommand.InvalidOption;
        }

        var mix = ValueMix.Create(settings.Profile, keys, result.GetValue(SeedOption));
        IReadOnlyList<(string Name, long Bytes)> totals;
        try
        {
            totals = await CompressionFloor.MeasureAsync(mix, contenders, CompressionFloor.Tools, Console.Out, cancellationToken).ConfigureAwait(false);
        }
        catch (InvalidOperationException ex)
        {
            await Console.Error.WriteLineAsync($"error: {ex.Message}").ConfigureAwait(false);
            return LoadTestCommand.ContenderFailed;
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            return LoadTestCommand.Cancelled;
        }

        Console.WriteLine();
        Console.WriteLine($"{settings.Profile} profile, {keys} keys, seed {result.GetValue(SeedOption)}: payload bytes, flags and memcached's item header not counted.");
        Console.Write(CompressionFloor.ToMarkdown(totals, keys));
        return LoadTestCommand.Success;
    }
}
