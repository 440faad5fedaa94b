using CacheSerializer.LoadTest.Checking;

namespace CacheSerializer.Benchmarks.Tests.LoadTest.Checking;

/// <summary>The migration and deploy scenarios' two rules: a stale value is one older than a delete or overwrite that had completed
/// before the read began; a lost hit is a miss on a key whose last write memcached stored, with no write since the read began.</summary>
public sealed class KeyLedgerTests
{
    [Fact]
    public void IsStale_ReadBeganAfterTheDeleteCompleted_OldVersionIsStale()
    {
        var ledger = new KeyLedger(keys: 2);
        ledger.WriteStarted(1);
        ledger.DeleteEnded(1, completed: true);
        ledger.Invalidated(1, version: 2);

        KeyLedger.ReadStart read = ledger.StartRead(1);

        Assert.True(KeyLedger.IsStale(read, version: 1));
        Assert.False(KeyLedger.IsStale(read, version: 2));
    }

    [Fact]
    public void IsStale_ReadBeganBeforeTheDeleteCompleted_OldVersionIsNotStale()
    {
        var ledger = new KeyLedger(keys: 2);
        KeyLedger.ReadStart read = ledger.StartRead(1);

        ledger.WriteStarted(1);
        ledger.DeleteEnded(1, completed: true);
        ledger.Invalidated(1, version: 2);

        Assert.False(KeyLedger.IsStale(read, version: 1));
        Assert.True(KeyLedger.IsStale(ledger.StartRead(1), version: 1));
    }

    [Fact]
    public void IsStale_OtherKeyInvalidated_NotStale()
    {
        var ledger = new KeyLedger(keys: 2);
        ledger.Invalidated(0, version: 5);

        Assert.False(KeyLedger.IsStale(ledger.StartRead(1), version: 1));
    }

    [Fact]
    public void IsLostHit_MissAfterAStoredWrite_LostUntilAWriteStarts()
    {
        var ledger = new KeyLedger(keys: 1);
        ledger.WriteStarted(0);
        ledger.StoreEnded(0, stored: true);

        KeyLedger.ReadStart read = ledger.StartRead(0);
        Assert.True(ledger.IsLostHit(0, read));

        // A write started after the read began (a delete on its way): the miss proves nothing.
        ledger.WriteStarted(0);
        Assert.False(ledger.IsLostHit(0, read));
        ledger.StoreEnded(0, stored: true);
        Assert.False(ledger.IsLostHit(0, read));
    }

    [Theory]
    [InlineData("delete")]
    [InlineData("failed delete")]
    [InlineData("unconfirmed store")]
    public void IsLostHit_AfterADeleteOrAnUnconfirmedWrite_NotLost(string write)
    {
        var ledger = new KeyLedger(keys: 1);
        ledger.WriteStarted(0);
        ledger.StoreEnded(0, stored: true);
        ledger.WriteStarted(0);
        if (write == "unconfirmed store")
        {
            ledger.StoreEnded(0, stored: false);
        }
        else
        {
            ledger.DeleteEnded(0, completed: write == "delete");
        }

        Assert.False(ledger.IsLostHit(0, ledger.StartRead(0)));
    }

    [Fact]
    public void IsLostHit_WriteInProgressWhenTheReadBegan_NotLost()
    {
        var ledger = new KeyLedger(keys: 1);
        ledger.WriteStarted(0);

        KeyLedger.ReadStart read = ledger.StartRead(0);
        ledger.StoreEnded(0, stored: true);

        Assert.False(ledger.IsLostHit(0, read));
        Assert.True(ledger.IsLostHit(0, ledger.StartRead(0)));
    }
}
