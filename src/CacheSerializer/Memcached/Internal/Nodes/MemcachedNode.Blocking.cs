using CacheSerializer.Memcached.Internal.Connections;
using CacheSerializer.Memcached.Internal.FailurePolicy;
using CacheSerializer.Memcached.Internal.Requests;

namespace CacheSerializer.Memcached.Internal.Nodes;

// A synchronous caller's request (SyncCall, without a cancellation token, over plaintext): sent and read on the calling
// thread over a connection of its own, taken from the node's idle ones or opened, so that the caller is woken once per
// call, by the kernel (docs/migrating-from-enyim.md, "Synchronous calls"). The failure policy is the shared
// connections': a timeout or a failed connect marks the server down, any other break only closes the connection.
internal sealed partial class MemcachedNode
{
    private ValueTask<TResult> ExecuteBlocking<TResult>(MemcachedRequest<TResult> request)
    {
        BlockingConnection connection;
        try
        {
            ThrowIfDown(request.Operation);
            connection = TakeBlocking() ?? BlockingConnection.Open(_endpoint, _settings, _disposed.Token);
        }
        catch (MemcachedException ex)
        {
            if (ex.Kind != MemcachedErrorKind.ServerDown)
            {
                MarkDown(ex);
            }

            return ValueTask.FromException<TResult>(ThrowHelper.ForOperation(ex, request.Operation));
        }
        catch (Exception ex) when (ex is ObjectDisposedException or OperationCanceledException)
        {
            return ValueTask.FromException<TResult>(new ObjectDisposedException(nameof(MemcachedClient)));
        }

        try
        {
            connection.Execute(request, _settings.OperationTimeout);
        }
        catch (MemcachedException ex)
        {
            connection.Dispose();
            if (Failures.MarksServerDown(ex.Kind))
            {
                MarkDown(ex);
            }

            if (ex.Kind == MemcachedErrorKind.Timeout)
            {
                request.OnUnanswered(); // closed by the client, as a shared connection's timeout: the server may still run it
            }

            request.Fail(ex);
            return request.AsValueTask();
        }

        request.Publish();
        request.ReleaseByConnection();
        GiveBackBlocking(connection);
        return request.AsValueTask();
    }

    /// <summary>An idle connection the server has not closed meanwhile, or null.</summary>
    private BlockingConnection? TakeBlocking()
    {
        while (_blocking!.TryTake(out BlockingConnection? idle))
        {
            if (!idle.ClosedWhileIdle)
            {
                return idle;
            }

            idle.Dispose();
        }

        return null;
    }

    private void GiveBackBlocking(BlockingConnection connection)
    {
        _blocking!.Add(connection);
        if (_disposed.IsCancellationRequested || _health.IsDown)
        {
            CloseBlocking(); // disposed or marked down meanwhile: it may have missed this one
        }
    }

    /// <summary>Closes every idle blocking connection (the server was marked down, or the client disposed).</summary>
    private void CloseBlocking()
    {
        while (_blocking is not null && _blocking.TryTake(out BlockingConnection? idle))
        {
            idle.Dispose();
        }
    }
}
