namespace CacheSerializer.Enyim.Internal;

/// <summary>A read's outcome: a hit (success, no status, the value and its CAS token), a miss (status 1, "Not found"), or
/// a failed server (no status), as EnyimMemcachedCore builds it (MemcachedClient.cs, BuildGetCommandResult, e383c4c).</summary>
/// <typeparam name="T">The value's type.</typeparam>
internal class GetOperationResult<T> : IGetOperationResult<T>
{
    public bool Success { get; set; }

    public string? Message { get; set; }

    public Exception? Exception { get; set; }

    public int? StatusCode { get; set; }

    public IOperationResult? InnerResult { get; set; }

    public bool HasValue => Value is not null;

    public T Value { get; set; } = default!;

    public ulong Cas { get; set; }

    internal void Fill(bool found, T? value, ulong cas)
    {
        Success = found;
        Value = value!;
        Cas = cas;
        StatusCode = found ? null : Status.NotFound;
        Message = found ? null : Status.MessageOf(Status.NotFound);
    }
}
