using CacheSerializer.LoadTest.Migrate;
using CacheSerializer.Workloads.Contenders;
using CacheSerializer.Workloads.Models;

namespace CacheSerializer.Benchmarks.Tests.LoadTest.Migrate;

/// <summary>The migration's source of truth names the version of every value read back, whichever transcoder wrote and
/// read it (BSON keeps milliseconds and gives local or UTC times), and no version for anything else: a wrong value.</summary>
public sealed class VersionedStoreTests
{
    public static TheoryData<string> Readers => ["DefaultTranscoder's bytes read by EnyimBsonTranscoder", "migration-phase bytes read by this package", "protobuf read by this package"];

    [Theory]
    [MemberData(nameof(Readers))]
    public void Identify_EveryVersionReadBack_ItsVersion(string reader)
    {
        var store = new VersionedStore(keys: 2, entries: 10, seed: 7);
        _ = store.Update(0);
        (int current, _) = store.Update(0);

        for (int version = 1; version <= current; version++)
        {
            Assert.Equal(version, store.Identify(0, RoundTrip(store.Create(0, version), reader)));
        }
    }

    [Fact]
    public void Identify_ValueOfAnotherKeyOrChanged_Null()
    {
        var store = new VersionedStore(keys: 2, entries: 10, seed: 7);
        UserFolderTree changed = store.Create(0, 1);
        changed.Entries[3].Size++;

        Assert.Null(store.Identify(0, store.Create(1, 1)));
        Assert.Null(store.Identify(0, changed));
    }

    [Fact]
    public void Identify_VersionTheStoreNeverHad_Null()
    {
        var store = new VersionedStore(keys: 1, entries: 10, seed: 7);
        UserFolderTree later = store.Create(0, 2);
        UserFolderTree between = store.Create(0, 1);
        between.Loaded = between.Loaded.AddMilliseconds(500);

        Assert.Null(store.Identify(0, later));
        Assert.Null(store.Identify(0, between));
    }

    private static UserFolderTree RoundTrip(UserFolderTree value, string reader)
    {
        var migration = new ProtobufTranscoder(new ProtobufTranscoderOptions { ObjectFormat = TranscoderObjectFormat.EnyimBson });
        return reader switch
        {
            "DefaultTranscoder's bytes read by EnyimBsonTranscoder" => new EnyimBsonTranscoder().Deserialize<UserFolderTree>(migration.Serialize(value)),
            "migration-phase bytes read by this package" => migration.Deserialize<UserFolderTree>(new EnyimBsonTranscoder().Serialize(value)),
            _ => new ProtobufTranscoder().Deserialize<UserFolderTree>(new ProtobufTranscoder().Serialize(value)),
        } ?? throw new InvalidOperationException("read back null");
    }
}
