using System.Diagnostics;
using CacheSerializer.LoadTest.Measuring;

namespace CacheSerializer.Benchmarks.Tests.LoadTest.Measuring;

public sealed class MeasuringTranscoderTests
{
    // How long SpinFor may spin by the wall clock: a clock that does not advance ends the loop here instead of never.
    private static readonly TimeSpan SpinLimit = TimeSpan.FromSeconds(30);

    [Fact]
    public void ThreadCpuClock_OnLinux_IsSupported()
    {
        Assert.Equal(OperatingSystem.IsLinux(), ThreadCpuClock.IsSupported);
    }

    [Fact]
    public void NowNanoseconds_SleepingThread_AdvancesFarLessThanTheWallClock()
    {
        // Another thread of this process spins meanwhile: a clock of the process's CPU (or the wall clock) would advance
        // with it, and a clock that did not advance at all would leave the spinner short of its 100 ms.
        long cpuBefore = ThreadCpuClock.NowNanoseconds();
        long spinnerCpu = 0;
        var spinner = new Thread(() => spinnerCpu = SpinFor(100_000_000));
        spinner.Start();

        Thread.Sleep(200);
        spinner.Join();

        long cpu = ThreadCpuClock.NowNanoseconds() - cpuBefore;
        Assert.True(spinnerCpu >= 100_000_000, $"the spinning thread's clock advanced {spinnerCpu} ns in {SpinLimit}");
        Assert.InRange(cpu, 0, 20_000_000); // a sleeping thread uses no CPU: well under a tenth of the 200 ms slept, and of the spinner's 100 ms
    }

    [Fact]
    public void NowNanoseconds_SpinningThread_AdvancesByNoMoreThanTheWallClock()
    {
        // Another thread of this process spins at the same time: a clock of the process's CPU would count both threads,
        // up to twice the wall clock on two free cores.
        using var stop = new CancellationTokenSource();
        var other = new Thread(() =>
        {
            while (!stop.IsCancellationRequested)
            {
                // spin
            }
        });
        other.Start();
        var wall = Stopwatch.StartNew();
        long cpu;
        try
        {
            cpu = SpinFor(30_000_000);
            wall.Stop();
        }
        finally
        {
            stop.Cancel();
            other.Join();
        }

        // At least the 30 ms spun (the loop also ends after SpinLimit of wall time, so a clock that does not advance fails
        // here), and no more than the wall clock: a thread runs at most as long as the wall clock.
        Assert.InRange(cpu, 30_000_000, (wall.Elapsed.Ticks * 100) + 1_000_000);
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

    /// <summary>Spins until this thread's clock has advanced <paramref name="nanoseconds"/> (or <see cref="SpinLimit"/>
    /// has passed); returns how far it advanced.</summary>
    private static long SpinFor(long nanoseconds)
    {
        long before = ThreadCpuClock.NowNanoseconds();
        var wall = Stopwatch.StartNew();
        long spun = 0;
        while (spun < nanoseconds && wall.Elapsed < SpinLimit)
        {
            spun = ThreadCpuClock.NowNanoseconds() - before;
        }

        return spun;
    }
}
