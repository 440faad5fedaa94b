namespace CacheSerializer.Memcached.Internal.Connections;

/// <summary>Tasks nobody awaits: an open started in the background, a probe's open left by a disposed client, a host
/// name's resolution given up at the connect timeout.</summary>
internal static class BackgroundTask
{
    /// <summary>Observes the task's failure, if it fails, so it never surfaces as an unobserved task exception. The
    /// observer runs on the thread that ends the task, never queued to the thread pool.</summary>
    internal static void ObserveFailure(Task task) =>
        _ = task.ContinueWith(static t => _ = t.Exception, CancellationToken.None, TaskContinuationOptions.OnlyOnFaulted | TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
}
