namespace CacheSerializer.LoadTest.Migrate;

/// <summary>What a cache call returned to the web server's code, and what its client caught and logged on the way
/// without telling the code (EnyimMemcachedCore's <c>SuppressException</c>; this package's unreadable items read as
/// misses, and server failures under <c>OnServerFailure = Miss</c>): the scenario counts each such exception.</summary>
/// <typeparam name="T">What the call returns.</typeparam>
/// <param name="Value">What the code got.</param>
/// <param name="Caught">The exception the client caught, in words, or null.</param>
/// <param name="NotAValue">What an old server's read found that is not a value (a get-or-create placeholder, which
/// EnyimMemcachedCore returns as a hit whose value is null), in words, or null.</param>
/// <param name="Requests">The memcached requests the call made and their outcomes (<see cref="Checking.CallProbe"/>), or null.</param>
/// <param name="ServerFailed">Whether a request of the call failed on its server (down, a timeout, a broken connection):
/// a miss it read then says nothing of what memcached held, so it is no lost hit.</param>
internal readonly record struct CacheReply<T>(T Value, string? Caught, string? NotAValue = null, string? Requests = null, bool ServerFailed = false);
