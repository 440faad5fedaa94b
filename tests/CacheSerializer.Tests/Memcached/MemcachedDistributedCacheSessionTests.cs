using System.Globalization;
using System.Text;
using CacheSerializer.Memcached;
using CacheSerializer.Memcached.Internal.Engine;
using CacheSerializer.Memcached.Internal.Requests;
using CacheSerializer.Tests.Memcached.Fixtures;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.DataProtection;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.TestHost;
using Microsoft.Extensions.Caching.Distributed;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Hosting;

namespace CacheSerializer.Tests.Memcached;

/// <summary>
/// ASP.NET Core's session middleware (Microsoft.AspNetCore.Session, over <c>IDistributedCache</c>) on old and new web
/// servers sharing three real memcached servers, one user's session cookie sent to each in turn through the whole switch
/// from EnyimMemcachedCore. An old server is EnyimMemcachedCore's <c>IDistributedCache</c> rebuilt from its source
/// (<see cref="EnyimDistributedCacheEmulation"/>: cnblogs/EnyimMemcachedCore at e383c4c742190da94007579ccb7377443021a7eb,
/// src/Enyim.Caching/DistributedCache.cs); a new one is this package bound from the same <c>enyimMemcached</c> section,
/// in the migration phase or flipped (<c>ProtobufTranscoder:ObjectFormat</c> <c>Protobuf</c>). Every request reads the
/// session (its id, a counter, the trail of every earlier request) and writes it, so a lost or reset session shows at
/// the next request.
/// </summary>
[Collection(MemcachedCollection.Name)]
public sealed class MemcachedDistributedCacheSessionTests(MemcachedServerFixture fixture) : IAsyncLifetime
{
    /// <summary>The farm's shared key ring: every web server reads the session cookie any other one issued.</summary>
    private readonly EphemeralDataProtectionProvider _keyRing = new();
    private readonly Dictionary<string, IHost> _servers = [];
    private string? _cookie;

    public async Task InitializeAsync()
    {
        foreach ((string name, string kind) in new[]
        {
            ("old1", "old"), ("old2", "old"), ("new1", "migration"), ("new2", "migration"), ("flip1", "flipped"), ("flip2", "flipped"),
        })
        {
            _servers[name] = await StartAsync(name, kind);
        }
    }

    public async Task DisposeAsync()
    {
        foreach (IHost server in _servers.Values)
        {
            await server.StopAsync();
            server.Dispose();
        }
    }

    [Fact]
    public async Task Session_BouncedBetweenOldAndNewServersThroughTheWholeSwitch_NeverLostOrReset()
    {
        string[] phases =
        [
            "old1 old2 old1", // before: EnyimMemcachedCore only
            "new1 old1 new2 old2 new1 old1", // the switch, one web server at a time: old and new (migration phase) side by side
            "new1 new2 new1", // switched, not yet flipped
            "flip1 new2 flip1 new1 flip2", // the flip, one web server at a time
            "flip1 flip2 flip1", // flipped
        ];
        string? id = null;
        var trail = new StringBuilder();
        int count = 0;
        foreach (string phase in phases)
        {
            foreach (string server in phase.Split(' '))
            {
                Visit visit = await VisitAsync(server, count);

                Assert.Equal(new Visit(id ?? visit.Id, count, trail.ToString()), visit);
                id = visit.Id;
                trail.Append(CultureInfo.InvariantCulture, $"{count}@{server} ");
                count++;
            }

            if (phase.StartsWith("new1 old1", StringComparison.Ordinal))
            {
                // What an old server reads: EnyimMemcachedCore's entry, the session's bytes under 0xFA52 and its 20-minute window beside it.
                GetReply entry = await RawAsync(SessionKey());
                Assert.Equal(0xFA52u, entry.Item.Flags);
                GetReply companion = await RawAsync(SessionKey() + "-sliding-expiration");
                Assert.Equal("00:20:00"u8.ToArray(), companion.Item.Data.ToArray());
            }
        }

        Assert.Equal(0xDC01u, (await RawAsync(SessionKey())).Item.Flags); // flipped: the package's own entry
    }

    [Fact]
    public async Task Session_BouncedBetweenAnOldServerAndAFlippedOne_LostOnTheOldServer()
    {
        // Why the migration phase writes EnyimMemcachedCore's entry: a server writing the package's own (0xDC01) while
        // an old one is still serving hands the old one a session it cannot read, so the user starts anew there.
        Visit first = await VisitAsync("old1", 0);
        Visit second = await VisitAsync("flip1", 1);
        Visit third = await VisitAsync("old1", 2);

        Assert.Equal(new Visit(first.Id, 1, "0@old1 "), second);
        Assert.Equal((0, string.Empty), (third.Count, third.Trail));
        Assert.NotEqual(first.Id, third.Id);
    }

    /// <summary>What a request found in the session: its id, the counter, the trail of the earlier requests.</summary>
    private sealed record Visit(string Id, int Count, string Trail);

    private async Task<Visit> VisitAsync(string server, int step)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, $"/?step={step}");
        if (_cookie is not null)
        {
            request.Headers.Add("Cookie", _cookie);
        }

        using HttpClient client = _servers[server].GetTestClient();
        using HttpResponseMessage response = await client.SendAsync(request);
        response.EnsureSuccessStatusCode();
        if (response.Headers.TryGetValues("Set-Cookie", out IEnumerable<string>? cookies))
        {
            Assert.Null(_cookie); // issued once, by the first request: later ones found the session
            _cookie = cookies.Single().Split(';')[0];
        }

        string[] lines = (await response.Content.ReadAsStringAsync()).Split('\n');
        return new Visit(lines[0], int.Parse(lines[1], CultureInfo.InvariantCulture), lines[2]);
    }

    /// <summary>The key the session is stored under: the session cookie's value, which the middleware protects with a
    /// protector of its name and writes as base64 without padding, escaped as a cookie value.</summary>
    private string SessionKey()
    {
        string value = Uri.UnescapeDataString(_cookie!.Split('=', 2)[1]);
        byte[] protectedKey = Convert.FromBase64String(value.PadRight(value.Length + ((4 - (value.Length % 4)) % 4), '='));
        return Encoding.UTF8.GetString(_keyRing.CreateProtector("SessionMiddleware").Unprotect(protectedKey));
    }

    private Task<GetReply> RawAsync(string key) =>
        _servers["new1"].Services.GetRequiredService<MemcachedEngine>().Reads.GetRawAsync(key, CancellationToken.None);

    private async Task<IHost> StartAsync(string name, string kind)
    {
        IHost host = new HostBuilder()
            .ConfigureWebHost(web => web
                .UseTestServer()
                .ConfigureServices(services =>
                {
                    services.AddEnyimSectionClient(fixture.Servers, kind == "flipped" ? EnyimSectionServices.Flipped : string.Empty);
                    if (kind == "old")
                    {
                        services.Replace(ServiceDescriptor.Singleton<IDistributedCache>(static provider =>
                            new EnyimDistributedCacheEmulation(provider.GetRequiredService<IMemcachedClient>())));
                    }

                    services.AddSession();
                    services.Replace(ServiceDescriptor.Singleton<IDataProtectionProvider>(_keyRing));
                })
                .Configure(app => app.UseSession().Run(context => ServeAsync(context, name))))
            .Build();
        await host.StartAsync();
        return host;
    }

    /// <summary>The application: reads the session, adds this request to it, answers what it read.</summary>
    private static async Task ServeAsync(HttpContext context, string server)
    {
        ISession session = context.Session;
        await session.LoadAsync(context.RequestAborted);
        int count = session.GetInt32("count") ?? 0;
        string trail = session.GetString("trail") ?? string.Empty;
        session.SetInt32("count", count + 1);
        session.SetString("trail", $"{trail}{context.Request.Query["step"]}@{server} ");
        await context.Response.WriteAsync($"{session.Id}\n{count}\n{trail}", context.RequestAborted);
    }
}
