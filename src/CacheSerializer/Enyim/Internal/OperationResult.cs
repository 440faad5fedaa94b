namespace CacheSerializer.Enyim.Internal;

/// <summary>The outcome of a store, remove, increment or decrement, append or prepend, or touch, with EnyimMemcachedCore's
/// binary-protocol status codes and messages (<see cref="Status"/>).</summary>
internal sealed class OperationResult : IStoreOperationResult, IRemoveOperationResult, IMutateOperationResult, IConcatOperationResult
{
    public bool Success { get; set; }

    public string? Message { get; set; }

    public Exception? Exception { get; set; }

    public int? StatusCode { get; set; }

    public IOperationResult? InnerResult { get; set; }

    public ulong Cas { get; set; }

    public ulong Value { get; set; }

    internal static OperationResult Passed(ulong cas = 0, ulong value = 0) => new() { Success = true, Cas = cas, Value = value };

    internal static OperationResult Failed(int? status) => new() { StatusCode = status, Message = Status.MessageOf(status) };
}
