using System.CommandLine;
using CacheSerializer.LoadTest.Cli;
using CacheSerializer.LoadTest.Deploy;

namespace CacheSerializer.Benchmarks.Tests.LoadTest.Deploy;

public sealed class DeployCommandTests
{
    private static DeploySettings Settings(params string[] args)
    {
        ParseResult result = LoadTestCommand.Create().Parse(["deploy", .. args]);
        Assert.Empty(result.Errors);
        return DeployCommand.ToSettings(result);
    }

    [Fact]
    public void ToSettings_NoOptions_DocumentedDefaults()
    {
        DeploySettings settings = Settings();

        Assert.Equal((4, 8, 200, TimeSpan.FromSeconds(2), TimeSpan.FromSeconds(10)),
            (settings.Clients, settings.CallersPerClient, settings.Keys, settings.Step, settings.DurationPerKind));
        Assert.Equal([ChangeKind.None, ChangeKind.MemberAdded, ChangeKind.MemberRetyped, ChangeKind.SubtypeRemoved], settings.Kinds);
        Assert.Equal((1, 20261125UL, "loadtest-results", false), (settings.Nodes, settings.Seed, settings.OutputDirectory, settings.Short));
    }

    [Fact]
    public void ToSettings_EveryOption_OverridesTheShortMode()
    {
        DeploySettings settings = Settings("--short", "--clients", "5", "--callers", "3", "--keys", "10", "--step", "300ms",
            "--kinds", "subtype-removed,None", "--nodes", "2", "--seed", "9", "--output", "out");

        Assert.Equal((5, 3, 10, TimeSpan.FromMilliseconds(300), true), (settings.Clients, settings.CallersPerClient, settings.Keys, settings.Step, settings.Short));
        Assert.Equal([ChangeKind.SubtypeRemoved, ChangeKind.None], settings.Kinds);
        Assert.Equal((2, 9UL, "out"), (settings.Nodes, settings.Seed, settings.OutputDirectory));
        settings.Validate();
    }

    [Fact]
    public void ToSettings_ShortAlone_ShortModeValues()
    {
        DeploySettings settings = Settings("--short");

        Assert.Equal((3, 4, 100, TimeSpan.FromMilliseconds(600)), (settings.Clients, settings.CallersPerClient, settings.Keys, settings.Step));
    }

    [Fact]
    public void ToSettings_UnknownKind_ThrowsNamingTheKinds()
    {
        ParseResult result = LoadTestCommand.Create().Parse(["deploy", "--kinds", "none,renamed"]);

        ArgumentException error = Assert.Throws<ArgumentException>(() => DeployCommand.ToSettings(result));
        Assert.Equal("--kinds: 'renamed' is not a change kind; use none, member-added, member-retyped, subtype-removed.", error.Message);
    }

    [Theory]
    [InlineData("--clients 0", "--clients is 0; it must be between 1 and 64.")]
    [InlineData("--step 50ms", "--step is 00:00:00.0500000; it must be between 100 ms and 10 minutes.")]
    [InlineData("--keys 0", "--keys is 0; it must be between 1 and 1,000,000.")]
    public void Validate_OutOfRange_ThrowsNamingTheOption(string args, string message)
    {
        DeploySettings settings = Settings(args.Split(' '));

        ArgumentException error = Assert.Throws<ArgumentException>(settings.Validate);
        Assert.Equal(message, error.Message);
    }
}
