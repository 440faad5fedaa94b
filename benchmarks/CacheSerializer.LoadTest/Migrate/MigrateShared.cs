using CacheSerializer.LoadTest.Checking;

namespace CacheSerializer.LoadTest.Migrate;

/// <summary>What every web server of one migration path shares, besides memcached: the keys, the source of truth, the
/// ledger of completed writes, and the counts.</summary>
/// <param name="Keys">The keys; key k holds the tree of the source of truth's row k.</param>
/// <param name="Store">The source of truth.</param>
/// <param name="Ledger">The completed writes, for the stale-value and lost-hit rules.</param>
/// <param name="Tally">The counts.</param>
/// <param name="UpdateEvery">Every Nth operation of a caller is an update.</param>
/// <param name="Trace">The last writes of each key, reported with a stale value.</param>
internal sealed record MigrateShared(string[] Keys, VersionedStore Store, KeyLedger Ledger, MigrateTally Tally, int UpdateEvery, KeyTrace Trace);
