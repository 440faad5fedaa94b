using Microsoft.Extensions.Options;

namespace CacheSerializer.Memcached.Internal.Configuration;

/// <summary>Checks <see cref="MemcachedClientOptions"/> when the host starts (<c>ValidateOnStart</c>), reporting every
/// problem at once; the same checks run when a client is built (<see cref="ClientSettings.Create"/>).</summary>
internal sealed class MemcachedOptionsValidator : IValidateOptions<MemcachedClientOptions>
{
    public ValidateOptionsResult Validate(string? name, MemcachedClientOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        List<MemcachedConfigurationException> problems = ClientSettings.Validate(options);
        return problems.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(problems.Select(static p => p.Message));
    }
}
