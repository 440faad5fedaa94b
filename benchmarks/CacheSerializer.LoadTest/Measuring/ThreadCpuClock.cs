using System.Runtime.InteropServices;

namespace CacheSerializer.LoadTest.Measuring;

/// <summary>
/// The calling thread's CPU time, so that a transcoder call is charged with the CPU it used and not with the wall time
/// a loaded machine adds while the thread waits for a core (16 users share 2 cores here).
/// </summary>
/// <remarks>
/// Linux only: <c>clock_gettime(CLOCK_THREAD_CPUTIME_ID)</c>, which counts user and system time of this thread, so a
/// gen-0/1 collection the call triggers on its own thread is counted and a background gen-2 collection is not. Elsewhere
/// <see cref="IsSupported"/> is false and the load test reports no transcoder CPU.
/// </remarks>
internal static class ThreadCpuClock
{
    private const int ClockThreadCpuTime = 3; // CLOCK_THREAD_CPUTIME_ID in <time.h> (Linux, every architecture)

    /// <summary>Gets a value indicating whether the thread CPU clock can be read on this machine.</summary>
    public static bool IsSupported { get; } = OperatingSystem.IsLinux() && ClockGetTime(ClockThreadCpuTime, out _) == 0;

    /// <summary>Returns the calling thread's CPU time.</summary>
    /// <returns>Nanoseconds of CPU this thread has used; 0 when the clock cannot be read.</returns>
    public static long NowNanoseconds() =>
        IsSupported && ClockGetTime(ClockThreadCpuTime, out Timespec time) == 0 ? (time.Seconds * 1_000_000_000L) + time.Nanoseconds : 0;

    [DllImport("libc", EntryPoint = "clock_gettime")]
    private static extern int ClockGetTime(int clock, out Timespec time);

    [StructLayout(LayoutKind.Sequential)]
    private struct Timespec
    {
        public long Seconds;
        public long Nanoseconds;
    }
}
