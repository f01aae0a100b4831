using System.Net;
using System.Text;
using Harness.LoadTests.Clients.Http1;

namespace Harness.LoadTests.Clients.Tests.Http1;

/// <summary>
/// The HTTP/1.1 client against servers that never stop or claim more than they send: an endless chunked body, interim
/// responses forever, a head spread over many interim responses, a gigabyte Content-Length. Each bound fails its call as
/// <c>response-too-large</c> (<see cref="HttpRequestError.ConfigurationLimitExceeded"/>, as HttpClient's limits), closes
/// the connection, and leaves the client's buffer no larger than the bytes it needed.
/// </summary>
// Alone: floods and failing calls by the thousand starve a test beside them.
[Collection(nameof(HostileServerCollection))]
public sealed class Http1HostileServerTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(20);

    public static TheoryData<string, string, int> EndlessReplies => new()
    {
        // What a server sends first, then what it repeats (at most the count).
        { "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", $"400\r\n{new string('x', 1024)}\r\n", 20_000 },
        { "", "HTTP/1.1 100 Continue\r\n\r\n", 100_000 },
        { "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n", "X-Trailer: forever\r\n", 100_000 },
        { "HTTP/1.1 200 OK\r\n", "X-Header: forever\r\n", 100_000 },
        { "HTTP/1.1 200 OK\r\nX-Line: ", new string('a', 1024), 1024 }, // a 1 MB header line
        { "HTTP/1.1 200 OK\r\n\r\n", new string('x', 1024), 20_000 }, // no length: to the close, which never comes
    };

    [Theory]
    [MemberData(nameof(EndlessReplies))]
    public async Task EndlessReply_FailsAtItsBound_AndTheConnectionIsNotReused(string start, string repeated, int times)
    {
        // Arrange: the first connection's reply never ends; the second answers.
        await using var server = new ScriptedHttpServer(async e =>
        {
            if (e.Connection > 1)
            {
                await e.WriteAsync("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
                return;
            }

            await e.WriteAsync(start);
            await e.RepeatAsync(repeated, times);
        });
        using var client = new Http1Client(server.Address, Timeout, "");

        // Act
        var ex = await Assert.ThrowsAsync<HttpRequestException>(() => Http1ClientTests.PostAsync(client, "x"));
        var next = await Http1ClientTests.PostAsync(client, "y");

        // Assert
        AssertBoundExceeded(ex);
        Assert.Equal("ok", next.Body);
        Assert.Equal(2, server.Accepted);
    }

    [Theory]
    [InlineData(10, true)] // 40 KB of interim heads: within the budget
    [InlineData(20, false)] // 80 KB: each head is short, all of them are not
    public async Task HeadBytes_SpreadOverInterimResponses_SpendOneBudget(int interim, bool answered)
    {
        var padded = $"HTTP/1.1 103 Early Hints\r\nLink: {new string('a', 4000)}\r\n\r\n";
        await using var server = new ScriptedHttpServer(e => e.WriteAsync(
            string.Concat(Enumerable.Repeat(padded, interim)) + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"));
        using var client = new Http1Client(server.Address, Timeout, "");

        var ex = await Record.ExceptionAsync(() => Http1ClientTests.PostAsync(client, "x"));

        if (answered)
        {
            Assert.Null(ex);
        }
        else
        {
            AssertBoundExceeded(ex);
            Assert.Contains($"longer than {Http1ResponseReader.MaxHeadSize} bytes", ex!.Message, StringComparison.Ordinal);
        }
    }

    [Fact]
    public async Task InterimResponses_PastTheirCount_FailTheCall()
    {
        await using var server = new ScriptedHttpServer(e => e.WriteAsync(
            string.Concat(Enumerable.Repeat("HTTP/1.1 100 Continue\r\n\r\n", Http1ResponseReader.MaxInterimResponses + 1)) + "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"));
        using var client = new Http1Client(server.Address, Timeout, "");

        var ex = await Record.ExceptionAsync(() => Http1ClientTests.PostAsync(client, "x"));

        AssertBoundExceeded(ex);
        Assert.Contains($"more than {Http1ResponseReader.MaxInterimResponses} interim", ex!.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(1L << 30)]
    [InlineData(3L << 30)]
    public async Task HugeContentLength_WithASlowBody_FailsAtOnce_NotAtTheTimeout(long length)
    {
        // A byte every 50 ms: the body would take years; the call must not wait for it, nor make room for it.
        await using var server = new ScriptedHttpServer(async e =>
        {
            await e.WriteAsync($"HTTP/1.1 200 OK\r\nContent-Length: {length}\r\n\r\n");
            await e.RepeatAsync("x", 200, TimeSpan.FromMilliseconds(50));
        });
        using var client = new Http1Client(server.Address, Timeout, "");

        var ex = await Record.ExceptionAsync(() => Http1ClientTests.PostAsync(client, "x"));

        AssertBoundExceeded(ex);
        Assert.Contains($"({Http1ResponseReader.DefaultMaxBodySize} bytes)", ex!.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("length", 1000, true)]
    [InlineData("length", 1001, false)]
    [InlineData("chunked", 1000, true)]
    [InlineData("chunked", 1001, false)]
    [InlineData("close", 1000, true)]
    [InlineData("close", 1001, false)]
    public async Task Body_IsTakenUpToTheBoundItWasGiven_AndNoFurther(string framing, int size, bool taken)
    {
        var body = new string('b', size);
        await using var server = new ScriptedHttpServer(async e =>
        {
            switch (framing)
            {
                case "length":
                    await e.WriteAsync($"HTTP/1.1 200 OK\r\nContent-Length: {size}\r\n\r\n{body}");
                    break;
                case "chunked":
                    var half = size / 2;
                    await e.WriteAsync($"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n{half:x}\r\n{body[..half]}\r\n{size - half:x}\r\n{body[half..]}\r\n0\r\n\r\n");
                    break;
                default:
                    await e.WriteAsync($"HTTP/1.1 200 OK\r\n\r\n{body}");
                    e.Close();
                    break;
            }
        });
        using var client = new Http1Client(server.Address, Timeout, "", maxBodySize: 1000);

        var ex = await Record.ExceptionAsync(() => Http1ClientTests.PostAsync(client, "x"));

        if (taken)
        {
            Assert.Null(ex);
        }
        else
        {
            AssertBoundExceeded(ex);
            Assert.Contains("(1000 bytes)", ex!.Message, StringComparison.Ordinal);
        }
    }

    [Fact]
    public async Task LargeContentLength_WithinTheBound_GrowsTheBufferWithTheBytes_NotAheadOfThem()
    {
        // Arrange: 4,000,000 bytes declared, 20,000 sent, then nothing until the exchange's deadline.
        using var release = new SemaphoreSlim(0);
        await using var server = new ScriptedHttpServer(async e =>
        {
            await e.WriteAsync($"HTTP/1.1 200 OK\r\nContent-Length: 4000000\r\n\r\n{new string('x', 20_000)}");
            await release.WaitAsync(TimeSpan.FromSeconds(10));
        });
        using var connection = await OpenAsync(server);

        // Act
        var ex = await Record.ExceptionAsync(async () => await ExchangeAsync(connection, TimeSpan.FromMilliseconds(500)));
        release.Release();

        // Assert
        Assert.NotNull(ex);
        Assert.True(connection.HasTimedOut, $"{ex.GetType().Name}: {ex.Message}");
        Assert.InRange(connection.ReceiveBufferSize, 20_000, 64 * 1024);
    }

    [Fact]
    public async Task ChunkedBody_OfManyChunksWithLongExtensions_HoldsNoMoreThanItsBody()
    {
        // 2,000 one-byte chunks, each with 1,000 bytes of extension: 2 MB of framing around a 2,000-byte body.
        var chunk = $"1;ext={new string('e', 1000)}\r\nz\r\n";
        await using var server = new ScriptedHttpServer(e => e.WriteAsync(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + string.Concat(Enumerable.Repeat(chunk, 2000)) + "0\r\n\r\n"));
        using var connection = await OpenAsync(server);

        var response = await ExchangeAsync(connection, Timeout);

        Assert.Equal(new string('z', 2000), Encoding.ASCII.GetString(connection.Slice(response.BodyStart, response.BodyLength)));
        Assert.True(response.KeepAlive);
        Assert.InRange(connection.ReceiveBufferSize, 2000, 16 * 1024);
    }

    [Fact]
    public async Task ClosedConnectionsBuffer_IsTheNextConnections_NotOneMore()
    {
        // Every call meets an endless body and fails at the bound: each closes its connection, and the next one receives
        // into the same buffer rather than growing its own.
        await using var server = new ScriptedHttpServer(async e =>
        {
            await e.WriteAsync("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
            await e.RepeatAsync($"400\r\n{new string('x', 1024)}\r\n", 1000);
        });
        using var client = new Http1Client(server.Address, Timeout, "", maxBodySize: 64 * 1024);

        for (var call = 0; call < 3; call++)
        {
            AssertBoundExceeded(await Record.ExceptionAsync(() => Http1ClientTests.PostAsync(client, "x")));
            Assert.Equal(1, client.SpareBuffers);
        }

        Assert.Equal(3, server.Accepted);
    }

    [Fact]
    public void BodyBound_OutsideWhatABufferHolds_IsRefused()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => new Http1Client(new Uri("http://127.0.0.1:1/"), Timeout, "", maxBodySize: -1));
        Assert.Throws<ArgumentOutOfRangeException>(() => new Http1Client(new Uri("http://127.0.0.1:1/"), Timeout, "", maxBodySize: int.MaxValue));
    }

    private static void AssertBoundExceeded(Exception? ex)
    {
        var http = Assert.IsType<HttpRequestException>(ex);
        Assert.Equal(HttpRequestError.ConfigurationLimitExceeded, http.HttpRequestError);
        Assert.Equal("response-too-large", FailureStatus.Of(http));
        // The client closes the connection on it, so the engine backs off as after a broken connection.
        Assert.True(FailureStatus.IsConnectionFailure(http));
    }

    private static Task<Http1Connection> OpenAsync(ScriptedHttpServer server) =>
        Http1Connection.OpenAsync(new IPEndPoint(IPAddress.Loopback, server.Address.Port), TimeSpan.FromSeconds(5), Http1ResponseReader.DefaultMaxBodySize, null, CancellationToken.None);

    private static ValueTask<Http1Response> ExchangeAsync(Http1Connection connection, TimeSpan timeout) =>
        connection.ExchangeAsync("POST /svc HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: "u8.ToArray(), "x"u8.ToArray(), [], timeout, CancellationToken.None);
}
