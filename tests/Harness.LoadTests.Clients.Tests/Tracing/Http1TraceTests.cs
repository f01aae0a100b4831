using Harness.LoadTests.Clients.Http1;
using Harness.LoadTests.Clients.Tests.Http1;
using Microsoft.Extensions.Logging;

namespace Harness.LoadTests.Clients.Tests.Tracing;

/// <summary>
/// The HTTP/1.1 client's events (docs/hostile-servers.md, "Tracing the clients"), against servers whose bytes the test
/// writes on loopback: a reply past a bound and one that is not HTTP are logged at Warning with why, and counted.
/// </summary>
public sealed class Http1TraceTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(10);

    [Fact]
    public async Task AReplyPastABound_IsLoggedAtWarning_AndCounted_AndItsConnectionClosed()
    {
        // Arrange: 1 GiB announced.
        await using var server = new ScriptedHttpServer(e => e.WriteAsync($"HTTP/1.1 200 OK\r\nContent-Length: {1L << 30}\r\n\r\nxx"));
        var log = new CapturedLog();
        using var client = new Http1Client(server.Address, Timeout, "", loggerFactory: log);
        var pastBound = ClientEventSource.Log.Http1ResponsesPastBound;

        // Act
        await Assert.ThrowsAsync<HttpRequestException>(() => Http1ClientTests.PostAsync(client, "x"));

        // Assert
        var warning = Assert.Single(log.Of(2004));
        Assert.Equal(LogLevel.Warning, warning.Level);
        Assert.Contains("Content-Length (1073741824 bytes) is larger than the client takes", warning.Message, StringComparison.Ordinal);
        Assert.True(ClientEventSource.Log.Http1ResponsesPastBound >= pastBound + 1);
        Assert.Equal(LogLevel.Debug, Assert.Single(log.Of(2001)).Level);
        Assert.Equal(LogLevel.Debug, Assert.Single(log.Of(2002)).Level);
    }

    [Fact]
    public async Task AReplyThatIsNotHttp_IsLoggedAtWarning()
    {
        // Arrange
        await using var server = new ScriptedHttpServer(e => e.WriteAsync("SSH-2.0-OpenSSH_9.2\r\n\r\n"));
        var log = new CapturedLog();
        using var client = new Http1Client(server.Address, Timeout, "", loggerFactory: log);

        // Act
        await Assert.ThrowsAsync<HttpRequestException>(() => Http1ClientTests.PostAsync(client, "x"));

        // Assert
        var warning = Assert.Single(log.Of(2005));
        Assert.Equal(LogLevel.Warning, warning.Level);
        Assert.Contains("is not HTTP/1.x", warning.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task AReplyPastABoundOnEveryCall_IsAWarningOnceASecond_TheOthersDebug()
    {
        // Arrange: every reply claims 1 GiB; the calls follow one another within far less than a second.
        await using var server = new ScriptedHttpServer(e => e.WriteAsync($"HTTP/1.1 200 OK\r\nContent-Length: {1L << 30}\r\n\r\n"));
        var log = new CapturedLog();
        using var client = new Http1Client(server.Address, Timeout, "", loggerFactory: log);
        var clock = System.Diagnostics.Stopwatch.StartNew();

        // Act
        for (var i = 0; i < 20; i++)
        {
            await Assert.ThrowsAsync<HttpRequestException>(() => Http1ClientTests.PostAsync(client, "x"));
        }

        // Assert: every one logged; at Warning at most once per second begun.
        var records = log.Of(2004);
        Assert.Equal(20, records.Count);
        Assert.Equal(LogLevel.Warning, records[0].Level);
        var warnings = records.Count(r => r.Level == LogLevel.Warning);
        Assert.InRange(warnings, 1, 1 + (int)clock.Elapsed.TotalSeconds);
        Assert.All(records.Where(r => r.Level != LogLevel.Warning), r => Assert.Equal(LogLevel.Debug, r.Level));
    }
}
