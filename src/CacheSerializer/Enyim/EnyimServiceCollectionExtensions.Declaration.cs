// Only for the sync branch to build alone: the lead drops this file when merging (the transcoders helper's
// EnyimServiceCollectionExtensions.cs declares the class and the partial method, and calls it).
namespace Microsoft.Extensions.DependencyInjection;

/// <summary>Registers EnyimMemcachedCore's client shape over this package's clients.</summary>
public static partial class EnyimServiceCollectionExtensions
{
    static partial void AddClientSurface(IServiceCollection services, string? name, Type? marker);
}
