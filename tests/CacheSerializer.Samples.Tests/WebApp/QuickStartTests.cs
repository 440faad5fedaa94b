using System.Net;
using System.Text.Json;
using System.Text.RegularExpressions;
using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.WebApp;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.DependencyInjection;

namespace CacheSerializer.Samples.Tests.WebApp;

/// <summary>The README's quick start is the sample's code, exactly, and it works against a real memcached.</summary>
public sealed partial class QuickStartTests
{
    [Fact]
    public void Readme_QuickStartBlock_IsQuickStartCsExactly()
    {
        List<string> blocks = CSharpBlocks(File.ReadAllText(RepositoryFile("README.md")));

        Assert.Equal(Normalize(File.ReadAllText(RepositoryFile("src/Samples/CacheSerializer.WebApp/QuickStart.cs"))), blocks[0]);
    }

    [Fact]
    public void Readme_ModelBlock_IsTheStartOfCatalogCsExactly()
    {
        List<string> blocks = CSharpBlocks(File.ReadAllText(RepositoryFile("README.md")));

        Assert.StartsWith(blocks[1], Normalize(File.ReadAllText(RepositoryFile("src/Samples/CacheSerializer.WebApp/Catalog.cs"))), StringComparison.Ordinal);
    }

    [Fact]
    public async Task QuickStart_AgainstRealMemcached_SecondReadIsACacheHitOfTheSubtype()
    {
        await using RunningQuickStart run = await RunningQuickStart.StartAsync();

        string first = await run.Http.GetStringAsync(new Uri("/products/1", UriKind.Relative));
        HttpResponseMessage second = await run.Http.GetAsync(new Uri("/products/1", UriKind.Relative));

        Assert.Equal(HttpStatusCode.OK, second.StatusCode);
        Assert.Equal(first, await second.Content.ReadAsStringAsync());
        using var json = JsonDocument.Parse(first);
        Assert.Equal("978-1449373320", json.RootElement.GetProperty("isbn").GetString());
        Assert.Equal(1, run.Loads);
    }

    [Fact]
    public async Task QuickStart_UnknownId_NotFoundEveryTimeAndNothingStored()
    {
        await using RunningQuickStart run = await RunningQuickStart.StartAsync();

        HttpResponseMessage first = await run.Http.GetAsync(new Uri("/products/404", UriKind.Relative));
        HttpResponseMessage second = await run.Http.GetAsync(new Uri("/products/404", UriKind.Relative));
        await using var direct = new MemcachedClient(new MemcachedClientOptions { Servers = { run.Server.Endpoint } });
        IReadOnlyDictionary<string, string> stats = (await direct.GetStatsAsync()).Values.Single();

        Assert.Equal((HttpStatusCode.NotFound, HttpStatusCode.NotFound), (first.StatusCode, second.StatusCode));
        Assert.Equal(2, run.Loads);
        // memcached's own count of items ever stored: the app stored none, not even a null.
        Assert.Equal(("0", "0"), (stats["total_items"], stats["curr_items"]));
    }

    private static List<string> CSharpBlocks(string markdown) =>
        [.. CSharpBlock().Matches(Normalize(markdown)).Select(match => match.Groups[1].Value)];

    private static string Normalize(string text) => text.ReplaceLineEndings("\n");

    private static string RepositoryFile(string relative)
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "CacheSerializer.sln")))
            {
                return Path.Combine(directory.FullName, relative);
            }
        }

        throw new FileNotFoundException($"No CacheSerializer.sln above {AppContext.BaseDirectory}.");
    }

    /// <summary>The quick start on Kestrel (127.0.0.1, a free port) against a memcached of its own.</summary>
    private sealed class RunningQuickStart : IAsyncDisposable
    {
        private RunningQuickStart(MemcachedServer server, WebApplication app)
        {
            Server = server;
            App = app;
            Http = new HttpClient
            {
                BaseAddress = new Uri(app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.Single()),
                Timeout = TimeSpan.FromSeconds(10),
            };
        }

        public MemcachedServer Server { get; }

        public WebApplication App { get; }

        public HttpClient Http { get; }

        /// <summary>How often the app asked its repository: once per miss.</summary>
        public int Loads => App.Services.GetRequiredService<ProductRepository>().Loads;

        public static async Task<RunningQuickStart> StartAsync()
        {
            var server = MemcachedServer.Start();
            WebApplication app = QuickStart.Build(
            [
                "--urls", "http://127.0.0.1:0",
                "--environment", "Production",
                $"--Memcached:Servers:0={server.Endpoint}",
                $"--Memcached:KeyPrefix=quickstart-{Guid.NewGuid():N}:",
                "--Logging:LogLevel:Default=Warning",
            ]);
            await app.StartAsync();
            return new RunningQuickStart(server, app);
        }

        public async ValueTask DisposeAsync()
        {
            Http.Dispose();
            await App.StopAsync();
            await App.DisposeAsync();
            Server.Dispose();
        }
    }

    [GeneratedRegex("```csharp\n(.*?)```", RegexOptions.Singleline)]
    private static partial Regex CSharpBlock();
}
