using System.Diagnostics;
using CacheSerializer.LoadTest.Farm;

namespace CacheSerializer.Benchmarks.Tests.LoadTest.Farm;

/// <summary>The farm's lost-write rule: a factory call follows a miss on a stored value only when memcached was seen
/// holding a value of the same epoch before the read started, and that epoch's expiry was done before any of its calls.</summary>
public sealed class FactoryLedgerTests
{
    [Fact]
    public void FollowsStoredValue_ValueSeenBeforeTheReadStarted_True()
    {
        var ledger = new FactoryLedger(keys: 1);
        Assert.Equal(0, ledger.RecordCall(0));
        ledger.Seen(0, 0);
        long readStarted = Stopwatch.GetTimestamp() + 1;

        int epoch = ledger.RecordCall(0);

        Assert.True(ledger.FollowsStoredValue(0, epoch, readEpoch: 0, readStarted));
    }

    [Fact]
    public void FollowsStoredValue_ReadStartedBeforeTheValueWasSeen_False()
    {
        var ledger = new FactoryLedger(keys: 1);
        long readStarted = Stopwatch.GetTimestamp();
        ledger.Seen(0, 0);

        Assert.False(ledger.FollowsStoredValue(0, ledger.RecordCall(0), readEpoch: 0, readStarted));
    }

    [Fact]
    public void FollowsStoredValue_ValueOfAnEarlierEpoch_False()
    {
        var ledger = new FactoryLedger(keys: 1);
        ledger.Seen(0, 0);
        ledger.NextEpoch(0);
        ledger.Expired(0);
        long readStarted = Stopwatch.GetTimestamp() + 1;

        Assert.False(ledger.FollowsStoredValue(0, ledger.RecordCall(0), readEpoch: 1, readStarted));
    }

    [Fact]
    public void FollowsStoredValue_CallMadeWhileTheExpiryWasOnItsWay_False()
    {
        // A call between NextEpoch and the delete's answer may store a value the delete then removes: no proof.
        var ledger = new FactoryLedger(keys: 1);
        ledger.NextEpoch(0);
        Assert.Equal(1, ledger.RecordCall(0));
        ledger.Expired(0);
        ledger.Seen(0, 1);
        long readStarted = Stopwatch.GetTimestamp() + 1;

        Assert.False(ledger.FollowsStoredValue(0, ledger.RecordCall(0), readEpoch: 1, readStarted));
    }
}
