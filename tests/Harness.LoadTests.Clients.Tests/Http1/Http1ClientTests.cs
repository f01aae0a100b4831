using System.Net.Sockets;
using System.Text;
using Harness.LoadTests.Clients.Http1;
using Harness.LoadTests.Hosting;

namespace Harness.LoadTests.Clients.Tests.Http1;

/// <summary>
/// The HTTP/1.1 client of the SOAP calls against a server whose every byte the test writes: each framing a server may
/// choose, a connection kept alive or closed, a reply cut short, no reply at all. Failures carry the exception HttpClient
/// would have thrown, so they keep their names (<see cref="FailureStatus"/>).
/// </summary>
public sealed class Http1ClientTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(10);

    [Fact]
    public async Task Request_IsWrittenWhole_AndTheReplyAndCapturedHeaderRead()
    {
        // Arrange
        await using var server = new ScriptedHttpServer(e => e.WriteAsync("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nHarness-Server-Time-Ms:  7.5 \r\n\r\nhello"));
        using var client = new Http1Client(server.Address, Timeout, "harness-server-time-ms");

        // Act
        var reply = await PostAsync(client, "ping");

        // Assert
        Assert.Equal((200, "hello", "7.5"), reply);
        var request = Assert.Single(server.Requests);
        Assert.Equal(
            $"POST /svc HTTP/1.1\r\nHost: 127.0.0.1:{server.Address.Port}\r\nContent-Type: text/xml\r\nSOAPAction: \"urn:a\"\r\nContent-Length: 4\r\n\r\nping",
            request);
    }

    [Fact]
    public async Task Calls_OneAfterAnother_ShareOneKeptAliveConnection()
    {
        await using var server = new ScriptedHttpServer(e => e.WriteAsync($"HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n{e.Index}"));
        using var client = new Http1Client(server.Address, Timeout, "");

        var bodies = new List<string>();
        for (var i = 0; i < 3; i++)
        {
            bodies.Add((await PostAsync(client, "x")).Body);
        }

        Assert.Equal(["1", "2", "3"], bodies);
        Assert.Equal(1, server.Accepted);
    }

    [Fact]
    public async Task ChunkedReply_SentAFewBytesAtATime_IsJoined_AndTheConnectionKept()
    {
        // Chunk extensions and a trailer, as RFC 9112 §7.1 allows, in pieces of 3 bytes.
        await using var server = new ScriptedHttpServer(e => e.WriteAsync(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;name=value\r\nhello\r\n7\r\n, world\r\n0\r\nExpires: never\r\n\r\n", piece: 3));
        using var client = new Http1Client(server.Address, Timeout, "");

        var first = await PostAsync(client, "a");
        var second = await PostAsync(client, "b");

        Assert.Equal("hello, world", first.Body);
        Assert.Equal("hello, world", second.Body);
        Assert.Equal(1, server.Accepted);
    }

    [Fact]
    public async Task InterimReply_IsSkipped()
    {
        await using var server = new ScriptedHttpServer(e => e.WriteAsync("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok"));
        using var client = new Http1Client(server.Address, Timeout, "");

        Assert.Equal((201, "ok", ""), await PostAsync(client, "x"));
    }

    [Theory]
    [InlineData("HTTP/1.1 200 OK\r\n\r\nall of it", true)] // no length: the body runs to the close
    [InlineData("HTTP/1.0 200 OK\r\n\r\nall of it", true)]
    [InlineData("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 9\r\n\r\nall of it", true)]
    [InlineData("HTTP/1.0 200 OK\r\nContent-Length: 9\r\n\r\nall of it", false)] // HTTP/1.0 closes unless it says keep-alive
    public async Task ConnectionTheServerEnds_IsNotReused(string reply, bool serverCloses)
    {
        await using var server = new ScriptedHttpServer(async e =>
        {
            await e.WriteAsync(reply);
            if (serverCloses)
            {
                e.Close();
            }
        });
        using var client = new Http1Client(server.Address, Timeout, "");

        var first = await PostAsync(client, "x");
        var second = await PostAsync(client, "y");

        Assert.Equal("all of it", first.Body);
        Assert.Equal("all of it", second.Body);
        Assert.Equal(2, server.Accepted);
    }

    [Fact]
    public async Task KeptAliveConnections_TheServerClosedWhileIdle_AreRetriedOnceOnANewOne()
    {
        // Arrange: two calls at once open two connections; each answers its call, as kept alive, then closes. Both wait
        // idle in the pool, so the next call meets a closed one before any reply, and its retry must not take the other.
        await using var server = new ScriptedHttpServer(async e =>
        {
            await e.WriteAsync("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
            if (e.Connection <= 2)
            {
                e.Close();
            }
        });
        using var client = new Http1Client(server.Address, Timeout, "");
        await Task.WhenAll(PostAsync(client, "first"), PostAsync(client, "second"));
        await Task.Delay(100);

        // Act
        var third = await PostAsync(client, "third");

        // Assert
        Assert.Equal("ok", third.Body);
        Assert.Equal(3, server.Accepted);
        Assert.Equal(3, server.Requests.Count);
    }

    [Fact]
    public async Task ReplyCutShort_OnANewConnection_FailsAsHttpClientsDoes_AndIsNotSentAgain()
    {
        await using var server = new ScriptedHttpServer(async e =>
        {
            await e.WriteAsync("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort");
            e.Close();
        });
        using var client = new Http1Client(server.Address, Timeout, "");

        var ex = await Assert.ThrowsAsync<HttpRequestException>(() => PostAsync(client, "x"));

        Assert.Equal(HttpRequestError.ResponseEnded, ex.HttpRequestError);
        Assert.Equal("http-error", FailureStatus.Of(ex));
        // A connection the server cut mid-reply: backed off as a broken connection.
        Assert.True(FailureStatus.IsConnectionFailure(ex));
        Assert.Equal(1, server.Accepted);
    }

    [Theory]
    [InlineData("SSH-2.0-OpenSSH_9.2\r\n\r\n")]
    [InlineData("HTTP/1.1 2000 OK\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nno colon here\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")]
    public async Task ReplyThatIsNotHttp_FailsAsAnInvalidResponse(string reply)
    {
        await using var server = new ScriptedHttpServer(e => e.WriteAsync(reply));
        using var client = new Http1Client(server.Address, Timeout, "");

        var ex = await Assert.ThrowsAsync<HttpRequestException>(() => PostAsync(client, "x"));

        Assert.Equal(HttpRequestError.InvalidResponse, ex.HttpRequestError);
    }

    [Fact]
    public async Task NoReply_WithinTheTimeout_IsATimeout_AndTheNextCallStillWorks()
    {
        using var release = new SemaphoreSlim(0);
        await using var server = new ScriptedHttpServer(async e =>
        {
            if (e.Connection == 1)
            {
                await release.WaitAsync(TimeSpan.FromSeconds(10));
                return;
            }

            await e.WriteAsync("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
        });
        using var client = new Http1Client(server.Address, TimeSpan.FromMilliseconds(300), "");

        var ex = await Assert.ThrowsAsync<TaskCanceledException>(() => PostAsync(client, "x"));
        var next = await PostAsync(client, "y");
        release.Release();

        Assert.IsType<TimeoutException>(ex.InnerException);
        Assert.Equal("timeout", FailureStatus.Of(ex));
        Assert.Equal("ok", next.Body);
    }

    [Fact]
    public async Task CallersCancellation_EndsTheCallAsCancelled()
    {
        using var release = new SemaphoreSlim(0);
        await using var server = new ScriptedHttpServer(e => release.WaitAsync(TimeSpan.FromSeconds(10)));
        using var client = new Http1Client(server.Address, Timeout, "");
        using var cancel = new CancellationTokenSource(TimeSpan.FromMilliseconds(200));

        var ex = await Assert.ThrowsAsync<TaskCanceledException>(() => PostAsync(client, "x", cancel.Token));
        release.Release();

        Assert.Equal(cancel.Token, ex.CancellationToken);
        Assert.IsNotType<TimeoutException>(ex.InnerException);
    }

    [Fact]
    public async Task ClosedPort_IsAConnectionFailure()
    {
        using var client = new Http1Client(new Uri($"http://127.0.0.1:{LoopbackPorts.Free(1)[0]}/svc"), Timeout, "");

        var ex = await Assert.ThrowsAsync<HttpRequestException>(() => PostAsync(client, "x"));

        Assert.Equal(HttpRequestError.ConnectionError, ex.HttpRequestError);
        Assert.IsType<SocketException>(ex.InnerException);
        Assert.Equal("connection", FailureStatus.Of(ex));
        Assert.True(FailureStatus.IsConnectionFailure(ex));
    }

    [Theory]
    [InlineData("Bad Name", "v", "not an HTTP token")]
    [InlineData("X-Injected", "a\r\nHost: elsewhere", "line break")]
    public void RequestHead_RefusesAHeaderHttpCannotCarry(string name, string value, string reason)
    {
        using var client = new Http1Client(new Uri("http://127.0.0.1:1/svc"), Timeout, "");

        var ex = Assert.Throws<ArgumentException>(() => client.RequestHead([new(name, value)]));

        Assert.Contains(name, ex.Message, StringComparison.Ordinal);
        Assert.Contains(reason, ex.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("https://example.invalid/")]
    [InlineData("ftp://example.invalid/")]
    public void SchemeOtherThanPlainHttp_IsRefusedByName(string address)
    {
        var ex = Assert.Throws<ArgumentException>(() => new Http1Client(new Uri(address), Timeout, ""));

        Assert.Contains(new Uri(address).Scheme + "://", ex.Message, StringComparison.Ordinal);
    }

    internal static Task<(int Status, string Body, string Captured)> PostAsync(Http1Client client, string body, CancellationToken cancellationToken = default)
    {
        var head = client.RequestHead([new("Content-Type", "text/xml"), new("SOAPAction", "\"urn:a\"")]);
        return client.PostAsync(
            head,
            Encoding.UTF8.GetBytes(body),
            0,
            static (_, status, reply, captured) => (status, Encoding.UTF8.GetString(reply), Encoding.UTF8.GetString(captured)),
            cancellationToken);
    }
}
