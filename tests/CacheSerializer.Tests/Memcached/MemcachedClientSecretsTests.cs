using System.Collections.Concurrent;
using System.Diagnostics;
using System.Security.Cryptography.X509Certificates;
using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.Tests.Memcached.Fixtures;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace CacheSerializer.Tests.Memcached;

/// <summary>Secrets never leak: every text the client produces (log lines with their exceptions and structured values,
/// exceptions, <c>ToString()</c> of the options, metric tags, span names, tags and statuses, health check reports) is
/// captured while the client authenticates over mutual TLS and is refused in each way, and none holds a password.</summary>
public sealed class MemcachedClientSecretsTests(CertificatesFixture fixture) : IClassFixture<CertificatesFixture>
{
    private const string User = "app";

    // Unique per run, so a match can only be a leak of this test's secrets (the meter and the activity source are
    // process-wide: other tests' measurements are captured too, and cannot hold these).
    private readonly string _password = "S3cret-" + Guid.NewGuid().ToString("N");
    private readonly string _wrongPassword = "Wr0ng-" + Guid.NewGuid().ToString("N");
    private readonly string _pfxPassword = "Pfx-" + Guid.NewGuid().ToString("N");
    private readonly ConcurrentQueue<string> _texts = new();
    private readonly ListLoggerProvider _logs = new();

    [Fact]
    public async Task EveryOutput_AuthenticatedMutualTlsAndEachRefusal_HoldsNoPassword()
    {
        // Every measurement of every instrument, unfiltered: any leak counts, and other tests' measurements cannot hold these.
        using var meters = new ClientMeterListener(static _ => true);
        using ActivityListener spans = ListenToSpans();
        string pfx = WriteClientPfx();
        var appUser = new KeyValuePair<string, string>(User, _password);
        using MemcachedServer secure = fixture.StartTls(requireClientCertificate: true, users: appUser);
        using var plainAuth = MemcachedServer.Start(security: new MemcachedServerSecurity { Users = [appUser] });
        using var open = MemcachedServer.Start();

        // Authenticated over mutual TLS, the client certificate from a password-protected PKCS#12 file.
        void Secure(MemcachedClientOptions o)
        {
            o.Servers.Add(secure.Endpoint);
            o.UserName = User;
            o.Password = _password;
            o.Tls.Enabled = true;
            o.Tls.CaCertificatePath = fixture.Certificates.CaPath;
            o.Tls.ClientCertificatePath = pfx;
            o.Tls.ClientCertificatePassword = _pfxPassword;
        }

        (HealthStatus health, string? read) = await UseAsync(Secure, async client =>
        {
            await client.SetAsync("secret:k", "v");
            return (await client.GetAsync<string>("secret:k")).Value;
        });
        Assert.Equal((HealthStatus.Healthy, "v"), (health, read));
        Assert.Null(await StartHostAsync(Secure));

        // The wrong password: each call, the health check, the down log, and the host's start.
        void Wrong(MemcachedClientOptions o)
        {
            o.Servers.Add(plainAuth.Endpoint);
            o.UserName = User;
            o.Password = _wrongPassword;
        }

        (health, MemcachedErrorKind kind) = await UseAsync(Wrong, async client => (await CaptureAsync(() => client.GetAsync<string>("k"))).Kind);
        Assert.Equal((HealthStatus.Unhealthy, MemcachedErrorKind.AuthenticationFailed), (health, kind));
        Assert.Equal(MemcachedErrorKind.AuthenticationFailed, Assert.IsType<MemcachedException>(await StartHostAsync(Wrong)).Kind);

        // Credentials offered to a server without -Y (never sent), and a TLS client certificate whose password is wrong.
        void NotEnabled(MemcachedClientOptions o)
        {
            o.Servers.Add(open.Endpoint);
            o.UserName = User;
            o.Password = _password;
        }

        (health, kind) = await UseAsync(NotEnabled, async client => (await CaptureAsync(() => client.SetAsync("k", "v"))).Kind);
        Assert.Equal((HealthStatus.Unhealthy, MemcachedErrorKind.AuthenticationNotEnabled), (health, kind));
        void WrongPfxPassword(MemcachedClientOptions o)
        {
            Secure(o);
            o.Tls.ClientCertificatePassword = _wrongPassword;
        }

        Assert.IsType<OptionsValidationException>(await StartHostAsync(WrongPfxPassword));

        // Passwords memcached could never match, refused by validation (the constructor and the host's start alike).
        void Unusable(MemcachedClientOptions o)
        {
            o.Servers.Add(plainAuth.Endpoint);
            o.UserName = User;
            o.Password = _password + " " + _password;
        }

        var options = new MemcachedClientOptions();
        Unusable(options);
        Capture(Assert.Throws<MemcachedConfigurationException>(() => new MemcachedClient(options)));
        Assert.IsType<OptionsValidationException>(await StartHostAsync(Unusable));
        Secure(options);
        _texts.Enqueue(options.ToString());
        _texts.Enqueue(options.Tls.ToString());

        // A snapshot: other tests' measurements keep arriving on the process-wide listeners while this reads.
        string[] texts = [.. _texts.ToArray(), .. _logs.Texts, .. meters.Measurements.SelectMany(static m => m.Tags.Select(static t => $"{t.Key}={t.Value}").Prepend(m.Instrument))];
        Assert.Contains(texts, t => t.Contains($"the server rejected user '{User}'", StringComparison.Ordinal)); // the exceptions and logs were captured,
        Assert.Contains(texts, t => t == "error.type=authentication_failed"); // the metric tags and span tags too,
        Assert.Contains(texts, t => t == $"span get {plainAuth.Endpoint} status=Error authentication_failed"); // and the span statuses,
        Assert.Contains(texts, t => t.Contains("Password = (hidden)", StringComparison.Ordinal)); // and the options' text:
        Assert.DoesNotContain(texts, t => t.Contains(_password, StringComparison.Ordinal) || t.Contains(_wrongPassword, StringComparison.Ordinal) || t.Contains(_pfxPassword, StringComparison.Ordinal));
    }

    /// <summary>A client of the container (logging to <see cref="_logs"/>, health check registered, not started):
    /// <paramref name="use"/> runs against it, then the health check.</summary>
    private async Task<(HealthStatus Health, T Result)> UseAsync<T>(Action<MemcachedClientOptions> configure, Func<IMemcachedClient, Task<T>> use)
    {
        var services = new ServiceCollection();
        services.AddLogging(builder => builder.AddProvider(_logs).SetMinimumLevel(LogLevel.Trace));
        services.AddMemcached(o =>
        {
            configure(o);
            o.OnServerFailure = ServerFailurePolicy.Throw;
            o.ServerDownInterval = TimeSpan.FromMinutes(1);
        });
        services.AddHealthChecks().AddMemcached();
        await using ServiceProvider provider = services.BuildServiceProvider();
        T result = await use(provider.GetRequiredService<IMemcachedClient>());
        HealthReport report = await provider.GetRequiredService<HealthCheckService>().CheckHealthAsync();
        foreach (HealthReportEntry entry in report.Entries.Values)
        {
            _texts.Enqueue($"health {entry.Status} {entry.Description} {entry.Exception}");
            _texts.Enqueue(string.Join(", ", entry.Data.Select(static d => $"{d.Key}={d.Value}")));
        }

        return (report.Status, result);
    }

    /// <summary>Starts and stops a host with the client (start-up validation connects to every server); returns why it
    /// did not start, or null.</summary>
    private async Task<Exception?> StartHostAsync(Action<MemcachedClientOptions> configure)
    {
        HostApplicationBuilder builder = Host.CreateEmptyApplicationBuilder(new HostApplicationBuilderSettings());
        builder.Logging.AddProvider(_logs).SetMinimumLevel(LogLevel.Trace);
        builder.Services.AddMemcached(configure);
        using IHost host = builder.Build();
        try
        {
            await host.StartAsync();
            await host.StopAsync();
            return null;
        }
        catch (Exception ex)
        {
            return Capture(ex);
        }
    }

    private async Task<MemcachedException> CaptureAsync(Func<Task> call) => Capture(await Assert.ThrowsAsync<MemcachedException>(call));

    private T Capture<T>(T exception)
        where T : Exception
    {
        _texts.Enqueue(exception.ToString());
        _texts.Enqueue(exception.Message);
        return exception;
    }

    private string WriteClientPfx()
    {
        using var pem = X509Certificate2.CreateFromPemFile(fixture.Certificates.Client.CertificatePath, fixture.Certificates.Client.KeyPath);
        string pfx = Path.Combine(fixture.Certificates.Directory, $"client-{Guid.NewGuid():N}.pfx");
        File.WriteAllBytes(pfx, pem.Export(X509ContentType.Pkcs12, _pfxPassword));
        return pfx;
    }

    private ActivityListener ListenToSpans()
    {
        var listener = new ActivityListener
        {
            ShouldListenTo = source => source.Name == MemcachedClient.ActivitySourceName,
            Sample = static (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.AllDataAndRecorded,
            ActivityStopped = activity =>
            {
                _texts.Enqueue($"span {activity.DisplayName} status={activity.Status} {activity.StatusDescription}");
                foreach (KeyValuePair<string, object?> tag in activity.TagObjects)
                {
                    _texts.Enqueue($"{tag.Key}={tag.Value}");
                }

                foreach (ActivityEvent e in activity.Events)
                {
                    _texts.Enqueue($"event {e.Name} " + string.Join(", ", e.Tags.Select(static t => $"{t.Key}={t.Value}")));
                }
            },
        };
        ActivitySource.AddActivityListener(listener);
        return listener;
    }
}
