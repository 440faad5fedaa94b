using System.CommandLine;
using CacheSerializer.LoadTest.Cli;
using CacheSerializer.LoadTest.Migrate;

namespace CacheSerializer.Benchmarks.Tests.LoadTest.Migrate;

public sealed class MigrateCommandTests
{
    private static MigrateSettings Settings(params string[] args)
    {
        ParseResult result = LoadTestCommand.Create().Parse(["migrate", .. args]);
        Assert.Empty(result.Errors);
        return MigrateCommand.ToSettings(result);
    }

    [Fact]
    public void ToSettings_NoOptions_DocumentedDefaults()
    {
        MigrateSettings settings = Settings();

        Assert.Equal((4, 8, 2000, TimeSpan.FromSeconds(4), 20), (settings.Clients, settings.CallersPerClient, settings.Keys, settings.Step, settings.UpdateEvery));
        Assert.Equal([MigratePath.Enyim, MigratePath.Ketama], settings.Paths);
        Assert.Equal((3, 20261127UL, "loadtest-results", false), (settings.Nodes, settings.Seed, settings.OutputDirectory, settings.Short));
        Assert.Equal((TimeSpan.FromSeconds(37), TimeSpan.FromSeconds(21)), (settings.Duration(MigratePath.Enyim), settings.Duration(MigratePath.Ketama)));
    }

    [Fact]
    public void ToSettings_ShortAlone_ShortModeValues()
    {
        MigrateSettings settings = Settings("--short");

        Assert.Equal((3, 4, 500, TimeSpan.FromMilliseconds(1500), true), (settings.Clients, settings.CallersPerClient, settings.Keys, settings.Step, settings.Short));
        Assert.Equal(3, settings.Nodes);
    }

    [Fact]
    public void ToSettings_EveryOption_OverridesTheShortMode()
    {
        MigrateSettings settings = Settings("--short", "--clients", "5", "--callers", "3", "--keys", "10", "--step", "300ms",
            "--update-every", "10", "--paths", "ketama,Enyim", "--nodes", "2", "--seed", "9", "--output", "out");

        Assert.Equal((5, 3, 10, TimeSpan.FromMilliseconds(300), 10), (settings.Clients, settings.CallersPerClient, settings.Keys, settings.Step, settings.UpdateEvery));
        Assert.Equal([MigratePath.Ketama, MigratePath.Enyim], settings.Paths);
        Assert.Equal((2, 9UL, "out"), (settings.Nodes, settings.Seed, settings.OutputDirectory));
        settings.Validate();
    }

    [Fact]
    public void ToSettings_UnknownPath_ThrowsNamingThePaths()
    {
        ParseResult result = LoadTestCommand.Create().Parse(["migrate", "--paths", "enyim,libmemcached"]);

        ArgumentException error = Assert.Throws<ArgumentException>(() => MigrateCommand.ToSettings(result));
        Assert.Equal("--paths: 'libmemcached' is not a path; use enyim, ketama.", error.Message);
    }

    [Theory]
    [InlineData("--update-every 1", "--update-every is 1; it must be between 2 and 1,000,000.")]
    [InlineData("--step 50ms", "--step is 00:00:00.0500000; it must be between 100 ms and 10 minutes.")]
    [InlineData("--keys 0", "--keys is 0; it must be between 1 and 1,000,000.")]
    public void Validate_OutOfRange_ThrowsNamingTheOption(string args, string message)
    {
        MigrateSettings settings = Settings(args.Split(' '));

        ArgumentException error = Assert.Throws<ArgumentException>(settings.Validate);
        Assert.Equal(message, error.Message);
    }
}
