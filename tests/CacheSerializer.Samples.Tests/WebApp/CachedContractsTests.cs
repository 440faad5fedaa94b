using System.Runtime.CompilerServices;
using CacheSerializer.WebApp;

namespace CacheSerializer.Samples.Tests.WebApp;

/// <summary>
/// The test docs/format.md ("Know before deploying") recommends to every application, run on the sample web app: the
/// contracts of the types it caches against the snapshot committed beside this file, so a change that would turn a
/// type's entries into misses during the next deploy is seen in review, with the member that changed.
/// </summary>
public class CachedContractsTests
{
    private static readonly Type[] Cached = [typeof(Product), typeof(Book), typeof(Course)];

    [Fact]
    public void CachedContracts_AreTheCommittedSnapshot()
    {
        IReadOnlyList<CacheContract> contracts = new ProtobufTranscoder().DescribeContracts(Cached);
        if (Environment.GetEnvironmentVariable("CACHESERIALIZER_WRITE_CONTRACTS") == "1")
        {
            string source = Path.Combine(SourceDirectory(), "cache-contracts.txt");
            File.WriteAllText(source, ContractSnapshot.Write(contracts));
            Assert.Fail($"Wrote {source}; review it, commit it, and run the tests again without CACHESERIALIZER_WRITE_CONTRACTS.");
        }

        IReadOnlyList<ContractChange> changes = ContractSnapshot.Compare(File.ReadAllText(SnapshotPath), contracts);

        // A deliberate change: review the lines, then run once with CACHESERIALIZER_WRITE_CONTRACTS=1 and commit the file.
        Assert.True(changes.Count == 0, string.Join("\n", changes));
    }

    [Fact]
    public void Compare_SnapshotOfAnotherBuild_NamesTheChangedMemberAndTheRemovedType()
    {
        IReadOnlyList<CacheContract> contracts = new ProtobufTranscoder().DescribeContracts(Cached);
        string other = File.ReadAllText(SnapshotPath)
            .Replace("  3: System.Decimal", "  3: System.Double", StringComparison.Ordinal)
            + "type CacheSerializer.WebApp.Voucher 0x00000001\n  protobuf-net contract 1\n";

        IReadOnlyList<ContractChange> changes = ContractSnapshot.Compare(other, contracts);

        Assert.Equal(
            [
                "CacheSerializer.WebApp.Book: entries are misses across the deploy (#0 member 3: System.Double compatibility=200 default=0 -> System.Decimal compatibility=200 default=0)",
                "CacheSerializer.WebApp.Course: entries are misses across the deploy (#0 member 3: System.Double compatibility=200 default=0 -> System.Decimal compatibility=200 default=0)",
                "CacheSerializer.WebApp.Product: entries are misses across the deploy (#0 member 3: System.Double compatibility=200 default=0 -> System.Decimal compatibility=200 default=0)",
                "CacheSerializer.WebApp.Voucher: no longer cached (its entries expire unread)",
            ],
            changes.Select(change => change.ToString()).ToArray());
    }

    // The committed snapshot, copied beside the test assembly by the project file. It is read from there, never through
    // [CallerFilePath]: a deterministic build (CI=true) maps source paths to /_/, which names no directory.
    private static string SnapshotPath => Path.Combine(AppContext.BaseDirectory, "WebApp", "cache-contracts.txt");

    // Only for writing a new snapshot, which happens in a local, non-deterministic build.
    private static string SourceDirectory([CallerFilePath] string path = "") => Path.GetDirectoryName(path)!;
}
