using System.Diagnostics;
using CacheSerializer.LoadTest.Measuring;

namespace CacheSerializer.Benchmarks.Tests.LoadTest.Measuring;

public sealed class MeasuringTranscoderTests
{
    [Fact]
    public void ThreadCpuClock_OnLinux_IsSupported()
    {
        Assert.Equal(OperatingSystem.IsLinux(), ThreadCpuClock.IsSupported);
    }

    [Fact]
    public void NowNanoseconds_SleepingThread_AdvancesFarLessThanTheWallClock()
    {
        long cpuBefore = ThreadCpuClock.NowNanoseconds();
        var wall = Stopwatch.StartNew();

        Thread.Sleep(200);

        long cpu = ThreadCpuClock.NowNanoseconds() - cpuBefore;
        Assert.True(wall.Elapsed >= TimeSpan.FromMilliseconds(200));
        Assert.InRange(cpu, 0, 20_000_000); // a sleeping thread uses no CPU: well under a tenth of the 200 ms slept
    }

    [Fact]
    public void NowNanoseconds_SpinningThread_AdvancesByNoMoreThanTheWallClock()
    {
        long cpuBefore = ThreadCpuClock.NowNanoseconds();
        var wall = Stopwatch.StartNew();

        while (ThreadCpuClock.NowNanoseconds() - cpuBefore < 30_000_000)
        {
            // spin until this thread has used 30 ms of CPU
        }

        wall.Stop();
        long cpu = ThreadCpuClock.NowNanoseconds() - cpuBefore;
        Assert.InRange(cpu, 30_000_000, (wall.Elapsed.Ticks * 100) + 1_000_000); // a thread runs at most as long as the wall clock
    }

    [Fact]
    public void SerializeThenDeserialize_RecordsTheSizeAndChargesBothCallsCpuUntilReset()
    {
        var sizes = new ValueHistogram();
        var transcoder = new MeasuringTranscoder(new ProtobufTranscoder(), sizes);
        string value = new('x', 300_000);

        CacheItem item = transcoder.Serialize(value);
        string? read = transcoder.Deserialize<string>(item);

        Assert.Equal(value, read);
        Assert.Equal(1, sizes.Count);
        Assert.Equal(300_000, sizes.Max);
        Assert.True(transcoder.SerializeNanoseconds > 0);
        Assert.True(transcoder.DeserializeNanoseconds > 0);

        transcoder.ResetCpu();

        Assert.Equal(0, transcoder.SerializeNanoseconds);
        Assert.Equal(0, transcoder.DeserializeNanoseconds);
        Assert.Equal(1, sizes.Count);
    }
}
