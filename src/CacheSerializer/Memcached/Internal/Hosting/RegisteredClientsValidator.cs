using CacheSerializer.Memcached.Internal.Configuration;
using Microsoft.Extensions.Options;

namespace CacheSerializer.Memcached.Internal.Hosting;

/// <summary>Validates the options of every registered client with <see cref="MemcachedOptionsValidator"/>, each
/// problem of a named client prefixed with the client's name, so a host with several clusters says which one is wrong.</summary>
/// <remarks>Options under a name no client is registered with are not a client's and are left alone (HybridCache's
/// serializer reads the unnamed options for their <c>OnUnreadableItem</c> when only named clients exist).</remarks>
internal sealed class RegisteredClientsValidator(IEnumerable<MemcachedRegistration> registrations) : IValidateOptions<MemcachedClientOptions>
{
    private readonly MemcachedOptionsValidator _validator = new();
    private readonly HashSet<string> _names = [.. registrations.Select(static r => r.Name ?? Options.DefaultName)];

    public ValidateOptionsResult Validate(string? name, MemcachedClientOptions options)
    {
        name ??= Options.DefaultName;
        if (!_names.Contains(name))
        {
            return ValidateOptionsResult.Skip;
        }

        ValidateOptionsResult result = _validator.Validate(name, options);
        return result.Failed && name.Length > 0
            ? ValidateOptionsResult.Fail(result.Failures!.Select(failure => $"memcached client '{name}': {failure}"))
            : result;
    }
}
