using System.Collections.Concurrent;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Routing;
using CacheSerializer.Memcached.Internal.Telemetry;
using Microsoft.Extensions.Logging;

namespace CacheSerializer.Memcached.Internal.Reading;

/// <summary>The one place a read deserializes an item (docs/client.md, "Unreadable items"): an item the transcoder
/// cannot read is counted, then thrown under <see cref="UnreadableItemPolicy.Throw"/>, or logged once per type and
/// reason and read as a miss under <see cref="UnreadableItemPolicy.Miss"/>.</summary>
/// <remarks>
/// Failures are classified once, here, by <see cref="TranscoderException.Kind"/>; anything else an application's own
/// transcoder throws is <see cref="TranscoderErrorKind.Other"/>. Cancellation and out-of-memory are never taken for an
/// unreadable item. A log line names the type and the reason, never the key (keys may hold user data).
/// </remarks>
internal sealed partial class ItemReader
{
    private readonly ITranscoder _transcoder;
    private readonly ILogger _logger;
    private readonly string _source;
    private readonly Router? _router;
    private readonly ConcurrentDictionary<(Type Type, TranscoderErrorKind Reason), bool> _logged = new();

    /// <param name="transcoder">The transcoder that reads items.</param>
    /// <param name="policy">What an unreadable item is.</param>
    /// <param name="logger">Where the first item of each type and reason is logged.</param>
    /// <param name="source">Who reads, for the log: "memcached client" or "HybridCache serializer".</param>
    /// <param name="router">Where keys live, for the metric's server (asked only for an unreadable item); null when reads
    /// have no key (HybridCache's serializer).</param>
    internal ItemReader(ITranscoder transcoder, UnreadableItemPolicy policy, ILogger logger, string source, Router? router = null)
    {
        _router = router;
        _transcoder = transcoder;
        Policy = policy;
        _logger = logger;
        _source = source;
    }

    /// <summary>Gets what an unreadable item is: a miss, or the transcoder's exception.</summary>
    internal UnreadableItemPolicy Policy { get; }

    /// <summary>Gets the transcoder that reads items.</summary>
    internal ITranscoder Transcoder => _transcoder;

    /// <summary>Deserializes an item into a <typeparamref name="T"/>; false when it cannot be read and the policy makes
    /// that a miss (logged and counted).</summary>
    /// <param name="item">The item.</param>
    /// <param name="key">The key it was read under (default when there is none).</param>
    /// <param name="value">The value, or default when false.</param>
    /// <param name="deleting">Whether the caller deletes the item (for the log line).</param>
    /// <exception cref="Exception">Under <see cref="UnreadableItemPolicy.Throw"/>: what the transcoder threw.</exception>
    internal bool TryRead<T>(CacheItem item, in MemcachedKey key, out T? value, bool deleting = false) =>
        TryRead(item, key, out value, out _, deleting);

    /// <summary>Deserializes an item into a <typeparamref name="T"/>; false when it cannot be read and the policy makes
    /// that a miss (logged and counted), with why in <paramref name="reason"/>.</summary>
    internal bool TryRead<T>(CacheItem item, in MemcachedKey key, out T? value, out TranscoderErrorKind reason, bool deleting = false)
    {
        try
        {
            value = _transcoder.Deserialize<T>(item);
            reason = default;
            return true;
        }
        catch (Exception ex) when (ex is not (OperationCanceledException or OutOfMemoryException))
        {
            if (!IsMiss(ex, typeof(T), key, deleting))
            {
                throw;
            }

            reason = ReasonOf(ex);
            value = default;
            return false;
        }
    }

    /// <summary>Counts an item that could not be read as a <paramref name="requested"/>, and tells whether the policy
    /// makes it a miss (then logs it, once per type and reason) or the caller throws <paramref name="ex"/>.</summary>
    /// <param name="ex">What reading it threw.</param>
    /// <param name="requested">The type asked for.</param>
    /// <param name="key">The key it was read under (default when there is none).</param>
    /// <param name="deleting">Whether the caller deletes the item (for the log line).</param>
    internal bool IsMiss(Exception ex, Type requested, in MemcachedKey key, bool deleting = false)
    {
        TranscoderErrorKind reason = ReasonOf(ex);
        Type type = (ex as ContractMismatchException)?.StoredType ?? requested;
        MemcachedTelemetry.RecordUnreadable(_router?.Locate(key).Endpoint, ReasonTag(reason), type);
        if (Policy == UnreadableItemPolicy.Throw)
        {
            return false;
        }

        Report(type, reason, ex, deleting);
        return true;
    }

    /// <summary>The kind an exception thrown at Deserialize stands for: its <see cref="TranscoderException.Kind"/>, or
    /// <see cref="TranscoderErrorKind.Other"/> for anything else (and for <see cref="TranscoderErrorKind.Unstorable"/>,
    /// which no read should report).</summary>
    internal static TranscoderErrorKind ReasonOf(Exception ex) =>
        ex is TranscoderException { Kind: not TranscoderErrorKind.Unstorable } transcoder ? transcoder.Kind : TranscoderErrorKind.Other;

    /// <summary>The metric's reason: the kind in snake case.</summary>
    internal static string ReasonTag(TranscoderErrorKind reason) => reason switch
    {
        TranscoderErrorKind.OtherContract => "other_contract",
        TranscoderErrorKind.UnknownType => "unknown_type",
        TranscoderErrorKind.WrongType => "wrong_type",
        TranscoderErrorKind.UnknownFlags => "unknown_flags",
        TranscoderErrorKind.Malformed => "malformed",
        _ => "other",
    };

    /// <summary>Logs the first unreadable item of a type and reason: a warning for what a deploy or another writer
    /// explains, an error for bytes that should never have been there.</summary>
    private void Report(Type type, TranscoderErrorKind reason, Exception ex, bool deleting)
    {
        LogLevel level = reason is TranscoderErrorKind.Malformed or TranscoderErrorKind.Other ? LogLevel.Error : LogLevel.Warning;
        if (!_logger.IsEnabled(level) || !_logged.TryAdd((type, reason), true))
        {
            return;
        }

        (string meaning, string advice) = Explain(reason, ex);
        string outcome = deleting ? "read as a miss and deleted if unchanged since (DeleteUnreadableItems)" : "read as a miss";
        string tag = ReasonTag(reason);
        string detail = ex.Message;
        LogUnreadable(_logger, level, _source, type, tag, meaning, outcome, advice, detail);
    }

    private static (string Meaning, string Advice) Explain(TranscoderErrorKind reason, Exception ex) => reason switch
    {
        TranscoderErrorKind.OtherContract => (
            "it was written under another contract of the type, by another build of the application",
            "expected during a rolling deploy, while builds with different models share the cache: the entry is replaced when this build stores the key. If it goes on after the deploy, two running builds disagree on the type's contract: compare ProtobufTranscoder.DescribeContract in each"),
        TranscoderErrorKind.UnknownType => (
            "it names a type this build does not know (renamed, removed, or added by a newer build)",
            "expected during a deploy that renames or adds types; otherwise register the type in ProtobufTranscoderOptions.KnownTypes or TypeAliases"),
        TranscoderErrorKind.WrongType => (
            "it holds another type than the one asked for",
            "one key is used for two types, or a key's type changed between builds: give each type its own keys, or read them as a common base type"),
        TranscoderErrorKind.UnknownFlags => (
            "its flags name nothing this transcoder reads (another client's or transcoder's item, or the BinaryFormatter fallback while it is off)",
            "check what else writes these keys, or configure this transcoder to read them"),
        TranscoderErrorKind.Malformed => (
            "its bytes are corrupt: truncated, a failed decompression, or a body the engine rejects",
            "check what else writes or appends to these keys (another client, a raw append) and that every build's transcoder options match"),
        _ => (
            $"the transcoder failed to read it ({ex.GetType().Name})",
            "see the detail; an application's own transcoder should throw TranscoderException with a Kind"),
    };

    [LoggerMessage(EventId = 20, Message = "{Source}: an item of {Type} cannot be read ({Reason}): {Meaning}. It was {Outcome} (MemcachedClientOptions.OnUnreadableItem = Miss); {Advice}. Logged once per type and reason; cacheserializer.memcached.unreadable_items counts every one. Detail: {Detail}")]
    private static partial void LogUnreadable(ILogger logger, LogLevel level, string source, Type type, string reason, string meaning, string outcome, string advice, string detail);
}
