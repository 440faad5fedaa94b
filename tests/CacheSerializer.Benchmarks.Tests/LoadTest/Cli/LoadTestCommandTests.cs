using System.CommandLine;
using CacheSerializer.LoadTest;
using CacheSerializer.LoadTest.Cli;

namespace CacheSerializer.Benchmarks.Tests.LoadTest.Cli;

public sealed class LoadTestCommandTests
{
    [Fact]
    public void ToSettings_NoOptions_DocumentedDefaults()
    {
        LoadTestSettings settings = Settings();

        Assert.Equal(TimeSpan.FromSeconds(60), settings.Duration);
        Assert.Null(settings.Operations);
        Assert.Equal(16, settings.Users);
        Assert.Equal(0.9, settings.ReadRatio);
        Assert.Equal(500, settings.Keys);
        Assert.Equal(1, settings.Nodes);
        Assert.Equal(1024, settings.MemoryMegabytes);
        Assert.Equal(20261122UL, settings.Seed);
        Assert.Equal("loadtest-results", settings.OutputDirectory);
        Assert.Empty(settings.Contenders);
        Assert.Empty(settings.Servers);
        Assert.False(settings.Short);
        Assert.Null(settings.KillNodeAt);
        Assert.Equal(TimeSpan.FromSeconds(10), settings.RestartNodeAfter);
        Assert.False(settings.AutoEject);
        Assert.False(settings.Tls);
    }

    [Fact]
    public void ToSettings_Tls_SetAndValid()
    {
        LoadTestSettings settings = Settings("--tls", "--nodes", "2");

        Assert.True(settings.Tls);
        Assert.Equal(2, settings.Nodes);
        settings.Validate();
    }

    [Fact]
    public void Validate_TlsWithGivenServers_ThrowsNamingTheOption()
    {
        LoadTestSettings settings = Settings("--tls", "--servers", "127.0.0.1:11211");

        ArgumentException error = Assert.Throws<ArgumentException>(settings.Validate);
        Assert.Equal("--tls needs servers the run starts itself (--nodes), with a throwaway certificate the client trusts; servers given with --servers are reached in plaintext.", error.Message);
    }

    [Fact]
    public void ToSettings_FaultMode_KillRestartAndAutoEject()
    {
        LoadTestSettings settings = Settings("--nodes", "3", "--duration", "30", "--kill-node-at", "12s", "--restart-node-after", "8", "--auto-eject");

        Assert.Equal(TimeSpan.FromSeconds(12), settings.KillNodeAt);
        Assert.Equal(TimeSpan.FromSeconds(8), settings.RestartNodeAfter);
        Assert.True(settings.AutoEject);
        settings.Validate();
    }

    [Fact]
    public void Parse_KillNodeAtNotADuration_ReportsAnErrorNamingTheOption()
    {
        ParseResult result = LoadTestCommand.Create().Parse(["--kill-node-at", "later"]);

        Assert.Contains(result.Errors, e => e.Message.Contains("--kill-node-at: 'later' is not a duration", StringComparison.Ordinal));
    }

    [Theory]
    [InlineData("--kill-node-at 90s", "--kill-node-at is 00:01:30; it must be above 0 and within the pass (00:01:00).")]
    [InlineData("--kill-node-at 10s --servers 127.0.0.1:11211", "--kill-node-at needs servers the run starts itself (--nodes); it never kills servers given with --servers.")]
    [InlineData("--kill-node-at 10s --restart-node-after 0", "--restart-node-after is 00:00:00; it must be above 0 and at most 1 hour.")]
    public void Validate_FaultModeOutOfRange_ThrowsNamingTheOption(string args, string message)
    {
        LoadTestSettings settings = Settings(args.Split(' '));

        ArgumentException error = Assert.Throws<ArgumentException>(settings.Validate);
        Assert.Equal(message, error.Message);
    }

    [Fact]
    public void ToSettings_ShortWithExplicitOptions_ShortModeThenExplicitOptionsWin()
    {
        LoadTestSettings settings = Settings("--short", "--users", "3", "--seed", "42");

        Assert.True(settings.Short);
        Assert.Equal(TimeSpan.FromSeconds(4), settings.Duration);
        Assert.Equal(200, settings.Keys);
        Assert.Equal(256, settings.MemoryMegabytes);
        Assert.Equal(3, settings.Users);
        Assert.Equal(42UL, settings.Seed);
    }

    [Fact]
    public void ToSettings_ProfileSeed_SixtyFourKeysEightUsersAndEightMebibyteItems()
    {
        LoadTestSettings settings = Settings("--profile", "seed");

        Assert.Equal(CacheSerializer.LoadTest.Mix.LoadProfile.Seed, settings.Profile);
        Assert.Equal(64, settings.Keys);
        Assert.Equal(8, settings.Users);
        Assert.Equal(8 * 1024 * 1024, settings.MaxItemBytes);
        Assert.Equal(2 * 1024 * 1024, Settings().MaxItemBytes);
    }

    [Fact]
    public void ToSettings_ProfileSeedShortWithExplicitKeys_SeedShortModeThenExplicitOptionsWin()
    {
        LoadTestSettings settings = Settings("--profile", "seed", "--short", "--keys", "20");

        Assert.True(settings.Short);
        Assert.Equal(4, settings.Users);
        Assert.Equal(20, settings.Keys);
        Assert.Equal(512, settings.MemoryMegabytes);
    }

    [Fact]
    public async Task Invoke_UnknownProfile_ExitsWithAnError()
    {
        ParseResult result = LoadTestCommand.Create().Parse(["--profile", "huge"]);

        Assert.NotEmpty(result.Errors);
        Assert.NotEqual(0, await result.InvokeAsync());
    }

    [Theory]
    [InlineData("45", 45.0)]
    [InlineData("90s", 90.0)]
    [InlineData("2m", 120.0)]
    [InlineData("1.5", 1.5)]
    [InlineData("500ms", 0.5)]
    [InlineData("00:00:07", 7.0)]
    public void ToSettings_Duration_ParsesSecondsUnitsAndTimeSpans(string text, double seconds)
    {
        Assert.Equal(TimeSpan.FromSeconds(seconds), Settings("--duration", text).Duration);
    }

    [Fact]
    public void Parse_DurationNotADuration_ReportsAnErrorNamingTheOption()
    {
        ParseResult result = LoadTestCommand.Create().Parse(["--duration", "soon"]);

        Assert.Contains(result.Errors, e => e.Message.Contains("--duration: 'soon' is not a duration", StringComparison.Ordinal));
    }

    [Fact]
    public void ToSettings_Lists_SplitOnCommasAndTrimmed()
    {
        LoadTestSettings settings = Settings("--contenders", "BSON, CacheSerializer", "--servers", "127.0.0.1:11211,localhost:11212");

        Assert.Equal(["BSON", "CacheSerializer"], settings.Contenders);
        Assert.Equal(["127.0.0.1:11211", "localhost:11212"], settings.Servers);
    }

    [Theory]
    [InlineData("--read-ratio", "1.5")]
    [InlineData("--users", "0")]
    [InlineData("--keys", "0")]
    [InlineData("--nodes", "17")]
    [InlineData("--memory", "8")]
    [InlineData("--operations", "0")]
    public void Validate_OutOfRange_ThrowsNamingTheOption(string option, string value)
    {
        LoadTestSettings settings = Settings(option, value);

        ArgumentException error = Assert.Throws<ArgumentException>(settings.Validate);
        Assert.StartsWith(option + " is ", error.Message, StringComparison.Ordinal);
    }

    private static LoadTestSettings Settings(params string[] args)
    {
        ParseResult result = LoadTestCommand.Create().Parse(args);
        Assert.Empty(result.Errors);
        return LoadTestCommand.ToSettings(result);
    }
}
