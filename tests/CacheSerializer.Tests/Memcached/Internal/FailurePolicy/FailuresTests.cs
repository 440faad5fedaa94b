using System.Text;
using CacheSerializer.Memcached;
using CacheSerializer.Memcached.Internal.FailurePolicy;
using CacheSerializer.Memcached.Internal.Protocol;

namespace CacheSerializer.Tests.Memcached.Internal.FailurePolicy;

/// <summary>Failure classification has one home (Failures): these pin what each kind and each error reply means.</summary>
public class FailuresTests
{
    [Theory]
    // Error lines of memcached 1.6's text and meta protocols (doc/protocol.txt, "Error strings"), read through the parser as
    // the client reads them; "ERROR <text>" is accepted as ERROR too.
    [InlineData("SERVER_ERROR object too large for cache", MemcachedErrorKind.ValueTooLarge)]
    [InlineData("SERVER_ERROR out of memory storing object", MemcachedErrorKind.ServerError)]
    [InlineData("CLIENT_ERROR bad data chunk", MemcachedErrorKind.ClientError)]
    [InlineData("CLIENT_ERROR cannot increment or decrement non-numeric value", MemcachedErrorKind.ClientError)]
    [InlineData("CLIENT_ERROR bad command line format", MemcachedErrorKind.ClientError)]
    [InlineData("ERROR", MemcachedErrorKind.ClientError)]
    [InlineData("ERROR unknown command", MemcachedErrorKind.ClientError)]
    public void OfErrorReply_MemcachedsErrorLines_HaveTheirKind(string line, MemcachedErrorKind expected)
    {
        byte[] bytes = Encoding.ASCII.GetBytes(line + "\r\n");
        Assert.True(MetaReplyParser.TryRead(bytes, out MetaReply reply, out int consumed));
        Assert.Equal(bytes.Length, consumed);
        Assert.True(reply.IsError);

        Assert.Equal(expected, Failures.OfErrorReply(reply.Code, reply.Line));
    }

    [Theory]
    [InlineData("STAT pid 1")]
    [InlineData("END")]
    [InlineData("ERRORS")]
    [InlineData("MN")]
    public void TryParseError_LinesThatAreNotErrors_AreNotErrors(string line)
    {
        Assert.False(MetaReplyParser.TryParseError(Encoding.ASCII.GetBytes(line), out _));
    }

    [Fact]
    public void Classification_EveryKind_IsTheDocumentedTable()
    {
        // kind: marks the server down, follows OnServerFailure, is a refusal, error.type (docs/client.md, "Failure policy").
        var expected = new Dictionary<MemcachedErrorKind, (bool Down, bool Policy, bool Refusal, string Type)>
        {
            [MemcachedErrorKind.ServerDown] = (false, true, false, "server_down"),
            [MemcachedErrorKind.ConnectFailed] = (true, true, false, "connect_failed"),
            [MemcachedErrorKind.ConnectionBroken] = (false, true, false, "connection_broken"),
            [MemcachedErrorKind.Timeout] = (true, true, false, "timeout"),
            [MemcachedErrorKind.QueueFull] = (false, true, false, "queue_full"),
            [MemcachedErrorKind.ServerError] = (false, false, false, "server_error"),
            [MemcachedErrorKind.ClientError] = (false, false, false, "client_error"),
            [MemcachedErrorKind.ValueTooLarge] = (false, false, false, "value_too_large"),
            [MemcachedErrorKind.ProtocolError] = (false, false, false, "protocol_error"),
            [MemcachedErrorKind.TlsHandshakeFailed] = (true, true, true, "tls_handshake_failed"),
            [MemcachedErrorKind.AuthenticationFailed] = (true, true, true, "authentication_failed"),
            [MemcachedErrorKind.AuthenticationRequired] = (true, true, true, "authentication_required"),
            [MemcachedErrorKind.AuthenticationNotEnabled] = (true, true, true, "authentication_not_enabled"),
        };

        Assert.Equal(Enum.GetValues<MemcachedErrorKind>().Order(), expected.Keys.Order());
        foreach ((MemcachedErrorKind kind, (bool down, bool policy, bool refusal, string type)) in expected)
        {
            Assert.Equal((kind, down, policy, refusal, type), (kind, Failures.MarksServerDown(kind), Failures.IsServerFailure(kind), Failures.IsRefusal(kind), Failures.ErrorType(kind)));
        }
    }

    [Fact]
    public void ForWritten_TimeoutBreak_TheOldestGetsTheTimeoutTheOthersConnectionBroken()
    {
        var timeout = new MemcachedException(MemcachedErrorKind.Timeout, "s:1", "get", "get on s:1: no reply");

        Exception oldest = Failures.ForWritten(timeout, oldest: true, "s:1", "get");
        Exception next = Failures.ForWritten(timeout, oldest: false, "s:1", "set");

        Assert.Same(timeout, oldest);
        Assert.Equal((MemcachedErrorKind.ConnectionBroken, "set", "set on s:1: the connection broke before the reply arrived (get on s:1: no reply); the request may or may not have been applied."),
            (((MemcachedException)next).Kind, ((MemcachedException)next).Operation, next.Message));
    }

    [Fact]
    public void ForUnsent_RefusedConnection_EveryCallerHearsTheRefusal()
    {
        var refused = new MemcachedException(MemcachedErrorKind.AuthenticationRequired, "s:1", "connect", "connect on s:1: the server requires authentication");

        MemcachedException unsent = Failures.ForUnsent(refused, "s:1", "get");
        MemcachedException broken = Failures.ForUnsent(new IOException("reset"), "s:1", "get");

        Assert.Equal((MemcachedErrorKind.AuthenticationRequired, "get on s:1: the server requires authentication"), (unsent.Kind, unsent.Message));
        Assert.Equal((MemcachedErrorKind.ConnectionBroken, "get on s:1: the connection broke before the request was sent (reset); it was not applied."), (broken.Kind, broken.Message));
    }

    [Fact]
    public void OfReadFailure_PlaintextClosedBeforeAnswering_IsAFailedConnectNamingTls()
    {
        (Exception cause, MemcachedErrorKind kind) = Failures.OfReadFailure(null, neverAnswered: true, "s:1", "get");
        (Exception later, MemcachedErrorKind laterKind) = Failures.OfReadFailure(null, neverAnswered: false, "s:1", "get");
        (Exception violation, MemcachedErrorKind violationKind) = Failures.OfReadFailure(new ProtocolViolationException("bad"), neverAnswered: false, "s:1", "get");

        Assert.Equal((MemcachedErrorKind.ConnectFailed, "s:1 closed the connection before answering anything (end of stream); " + CacheSerializer.Memcached.Internal.ThrowHelper.PlaintextToTlsHint), (kind, cause.Message));
        Assert.Equal((MemcachedErrorKind.ConnectionBroken, "s:1 closed the connection"), (laterKind, later.Message));
        Assert.Equal((MemcachedErrorKind.ProtocolError, "get on s:1: protocol error: bad; the connection was closed."), (violationKind, violation.Message));
    }
}
