namespace CacheSerializer.Memcached.Internal.Protocol;

/// <summary>The reply codes of the meta protocol (doc/protocol.txt), and the error lines any command may get.</summary>
internal enum MetaReplyCode
{
    /// <summary><c>VA &lt;size&gt; &lt;flags&gt;*</c> followed by a data block.</summary>
    Value,

    /// <summary><c>HD</c>: success without a value (stored, deleted, touched, hit without <c>v</c>).</summary>
    Success,

    /// <summary><c>EN</c>: miss.</summary>
    Miss,

    /// <summary><c>NF</c>: not found.</summary>
    NotFound,

    /// <summary><c>NS</c>: not stored.</summary>
    NotStored,

    /// <summary><c>EX</c>: CAS mismatch.</summary>
    Exists,

    /// <summary><c>MN</c>: the answer to <c>mn</c>.</summary>
    Noop,

    /// <summary><c>ERROR</c>: unknown command.</summary>
    Error,

    /// <summary><c>CLIENT_ERROR &lt;text&gt;</c>.</summary>
    ClientError,

    /// <summary><c>SERVER_ERROR &lt;text&gt;</c>.</summary>
    ServerError,
}
