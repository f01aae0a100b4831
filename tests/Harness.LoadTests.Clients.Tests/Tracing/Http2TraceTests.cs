using System.Diagnostics;
using Google.Protobuf;
using Grpc.Core;
using Harness.Contracts.Grpc;
using Harness.LoadTests.Clients.Grpc.Http2;
using Microsoft.Extensions.Logging;

namespace Harness.LoadTests.Clients.Tests.Tracing;

/// <summary>
/// The lean HTTP/2 client's events (docs/hostile-servers.md, "Tracing the clients"), against servers scripted frame by
/// frame on loopback: each is logged under its id at its level with the server's error code, and counted.
/// </summary>
public sealed class Http2TraceTests
{
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(10);

    private static byte[] GoAway(uint errorCode, int lastStreamId = 0) =>
        H2.Frame(H2.GoAway, 0, 0, [(byte)(lastStreamId >> 24), (byte)(lastStreamId >> 16), (byte)(lastStreamId >> 8), (byte)lastStreamId, 0, 0, 0, (byte)errorCode]);

    private static ScriptedHttp2Server GoAwayServer(uint errorCode) => new(async c =>
    {
        await c.SendAsync(H2.ServerSettings(), H2.SettingsAck());
        await c.NextRequestAsync();
        await c.SendAsync(GoAway(errorCode));
        await c.HoldAsync();
    });

    [Theory]
    [InlineData(0xbu, "ENHANCE_YOUR_CALM", LogLevel.Warning)]
    [InlineData(0x1u, "PROTOCOL_ERROR", LogLevel.Warning)]
    [InlineData(0x0u, "NO_ERROR", LogLevel.Information)]
    public async Task GoAway_IsLoggedWithItsCodeAndLastStream_AtWarning_OrInformationForNoError(uint code, string name, LogLevel level)
    {
        // Arrange
        await using var server = GoAwayServer(code);
        var log = new CapturedLog();
        using var client = new Http2GrpcClient(server.Address, loggerFactory: log);

        // Act
        var failure = await Assert.ThrowsAsync<RpcException>(() => client.ComputeAsync(1).WaitAsync(Bound));

        // Assert: the call fails as before; the log says why.
        Assert.Equal(StatusCode.Unavailable, failure.StatusCode);
        var goAway = Assert.Single(log.Of(1004));
        Assert.Equal(level, goAway.Level);
        Assert.Contains($"{name}, last stream 0", goAway.Message, StringComparison.Ordinal);
        var opened = Assert.Single(log.Of(1001));
        Assert.Equal(LogLevel.Debug, opened.Level);
        Assert.Contains("127.0.0.1:", opened.Message, StringComparison.Ordinal);
        var closed = await WaitForAsync(() => log.Of(1002).SingleOrDefault());
        Assert.Equal(LogLevel.Debug, closed?.Level);
    }

    [Fact]
    public async Task AResetOfEveryCall_IsLoggedAtDebugOnly_WithItsStreamAndCode()
    {
        // Arrange: every call's stream reset with INTERNAL_ERROR.
        const int Calls = 50;
        await using var server = new ScriptedHttp2Server(async c =>
        {
            await c.SendAsync(H2.ServerSettings(), H2.SettingsAck());
            for (var i = 0; i < Calls; i++)
            {
                var id = await c.NextRequestAsync();
                await c.SendAsync(H2.Frame(H2.RstStream, 0, id, [0, 0, 0, 0x2]));
            }

            await c.HoldAsync();
        });
        var log = new CapturedLog();
        using var client = new Http2GrpcClient(server.Address, loggerFactory: log);

        // Act
        var calls = Enumerable.Range(0, Calls).Select(_ => client.ComputeAsync(1)).ToList();
        foreach (var call in calls)
        {
            await Assert.ThrowsAsync<RpcException>(() => call.WaitAsync(Bound));
        }

        // Assert: one Debug line per reset, none above Debug at all.
        var resets = log.Of(1005);
        Assert.Equal(Calls, resets.Count);
        Assert.All(resets, r => Assert.Equal(LogLevel.Debug, r.Level));
        Assert.All(resets, r => Assert.EndsWith(": INTERNAL_ERROR", r.Message, StringComparison.Ordinal));
        Assert.Contains(resets, r => r.Message.Contains("on stream 1:", StringComparison.Ordinal));
        Assert.DoesNotContain(log.Records, r => r.Level > LogLevel.Debug);
    }

    [Fact]
    public async Task AProtocolError_IsLoggedAtWarning_WithTheCodeTheRunnerSentAndWhy()
    {
        // Arrange: a PING of 7 bytes in answer to the call (it must be 8).
        await using var server = new ScriptedHttp2Server(async c =>
        {
            await c.SendAsync(H2.ServerSettings(), H2.SettingsAck());
            await c.NextRequestAsync();
            await c.SendAsync(H2.Frame(H2.Ping, 0, 0, new byte[7]));
            await c.HoldAsync();
        });
        var log = new CapturedLog();
        using var client = new Http2GrpcClient(server.Address, loggerFactory: log);

        // Act
        await Assert.ThrowsAsync<RpcException>(() => client.ComputeAsync(1).WaitAsync(Bound));

        // Assert
        var error = Assert.Single(log.Of(1006));
        Assert.Equal(LogLevel.Warning, error.Level);
        Assert.Contains("GOAWAY FRAME_SIZE_ERROR: a frame of 7 bytes where its type takes 8", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task TheCounters_CountAConnectionOpened_AndAGoAwayReceived()
    {
        // Arrange: the totals so far in this process (other tests' connections count too).
        using var listener = new ClientCounterListener();
        var opened = ClientEventSource.Log.Http2ConnectionsOpened;
        var goAways = ClientEventSource.Log.Http2GoAwaysReceived;
        await using var server = GoAwayServer(0xb);
        using var client = new Http2GrpcClient(server.Address);

        // Act
        await Assert.ThrowsAsync<RpcException>(() => client.ComputeAsync(1).WaitAsync(Bound));

        // Assert: as dotnet-counters would read them.
        Assert.True(await listener.WaitForAsync("http2-connections-opened", opened + 1, Bound) >= opened + 1, "no connection opened counted");
        Assert.True(await listener.WaitForAsync("http2-goaway-received", goAways + 1, Bound) >= goAways + 1, "no GOAWAY counted");
    }

    [Fact]
    public async Task CallsThatSucceed_LogNothingButTheConnectionOpened()
    {
        // Arrange
        await using var server = new ScriptedHttp2Server(async c =>
        {
            await c.SendAsync(H2.ServerSettings(), H2.SettingsAck());
            for (var i = 0; i < 10; i++)
            {
                var id = await c.NextRequestAsync();
                await c.SendAsync(
                    H2.HeadersFrame(id, H2.ResponseHeaders()),
                    H2.DataFrame(id, H2.Message(new ComputeReply { Result = 89 }.ToByteArray())),
                    H2.HeadersFrame(id, H2.Trailers("0"), endStream: true));
            }

            await c.HoldAsync();
        });
        var log = new CapturedLog();
        using var client = new Http2GrpcClient(server.Address, loggerFactory: log);

        // Act
        for (var i = 0; i < 10; i++)
        {
            Assert.Equal(89, (await client.ComputeAsync(1).WaitAsync(Bound)).Result);
        }

        // Assert
        var only = Assert.Single(log.Records);
        Assert.Equal(1001, only.EventId);
    }

    private static async Task<T?> WaitForAsync<T>(Func<T?> read)
        where T : class
    {
        var clock = Stopwatch.StartNew();
        while (read() is null && clock.Elapsed < Bound)
        {
            await Task.Delay(20);
        }

        return read();
    }
}
