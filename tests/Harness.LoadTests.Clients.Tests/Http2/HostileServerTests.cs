using System.Diagnostics;
using System.Net;
using Google.Protobuf;
using Grpc.Core;
using Harness.Contracts.Grpc;
using Harness.LoadTests.Clients.Grpc;
using Harness.LoadTests.Clients.Grpc.Http2;

namespace Harness.LoadTests.Clients.Tests.Http2;

/// <summary>
/// The lean gRPC client before servers that break HTTP/2 or flood it, each scripted byte by byte
/// (<see cref="ScriptedHttp2Server"/>): every call ends within a bounded time under the failure its bound names
/// (docs/hostile-servers.md), and the client stops taking what the server sends (the server could send only a bounded
/// part of what it tried before the client closed, or was told to stop).
/// </summary>
// Alone: floods and failing calls by the thousand starve a test beside them.
[Collection(nameof(HostileServerCollection))]
public sealed class HostileServerTests
{
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(15);

    // What a flooding server tries to send at most; a bounded client closes long before.
    private const long FloodLimit = 64L * 1024 * 1024;

    private static byte[] Reply => H2.Message(new ComputeReply { Result = 89 }.ToByteArray());

    [Fact]
    public void QueuedControlFrames_LargerThanTheSendBuffer_AreAllWritten()
    {
        // Arrange: more PING ACKs and RST_STREAMs than the writer's first 16 KB buffer holds.
        var endPoint = new IPEndPoint(IPAddress.Loopback, 1);
        var connection = new Http2Connection(
            new Http2ConnectionPool(endPoint, 10, Http2Frames.ReceiveWindow, CallTimeouts.MaxConnectTimeout), endPoint, 10, Http2Frames.ReceiveWindow, CallTimeouts.MaxConnectTimeout);
        var frames = Enumerable.Range(0, 1000).Select(i => Http2Frames.PingAck(BitConverter.GetBytes((long)i)))
            .Concat(Enumerable.Range(0, 1300).Select(i => Http2Frames.Reset((2 * i) + 1, Http2Frames.Cancel)))
            .ToList();

        // Act
        foreach (var frame in frames)
        {
            connection.Append(frame);
        }

        // Assert
        Assert.Equal(frames.SelectMany(f => f).ToArray(), connection.Unsent.ToArray());
    }

    [Fact]
    public async Task ManyPings_BelowTheFloodBound_AreAllAnswered_AndTheCallSucceeds()
    {
        // Arrange: 990 PINGs in one send, more acknowledgements than the writer's first buffer holds.
        const int Pings = 990;
        await using var server = new ScriptedHttp2Server(async c =>
        {
            await c.SendAsync(H2.ServerSettings(), H2.SettingsAck());
            await c.SendAsync([.. Enumerable.Repeat(H2.PingFrame(), Pings).SelectMany(f => f)]);
            var id = await c.NextRequestAsync();
            await c.SendAsync(H2.HeadersFrame(id, H2.ResponseHeaders()), H2.DataFrame(id, Reply), H2.HeadersFrame(id, H2.Trailers("0"), endStream: true));
            await c.HoldAsync();
        });
        using var client = new Http2GrpcClient(server.Address);

        // Act
        var reply = await client.ComputeAsync(1).WaitAsync(Bound);
        var acks = await EventuallyAsync(() => server.Connection(0).PingAcks, n => n >= Pings);

        // Assert
        Assert.Equal(89, reply.Result);
        Assert.Equal(Pings, acks);
        Assert.Equal(1, server.Accepted);
    }

    [Theory]
    [InlineData("PING")]
    [InlineData("SETTINGS")]
    public async Task AcknowledgementFlood_FromAServerThatDoesNotRead_ClosesTheConnection(string frame)
    {
        // Arrange: the server stops reading and sends PINGs (or SETTINGS) without end: the acknowledgements pile up.
        var unit = frame == "PING" ? H2.PingFrame() : H2.ServerSettings((0x3, 100));
        var sent = new TaskCompletionSource<long>();
        await using var server = new ScriptedHttp2Server(async c =>
        {
            await c.SendAsync(H2.ServerSettings(), H2.SettingsAck());
            await c.NextRequestAsync();
            c.PauseReading();
            sent.TrySetResult(await c.FloodAsync(unit, FloodLimit));
        });
        using var client = new Http2GrpcClient(server.Address);

        // Act
        var (failure, elapsed) = await FailureAsync(client);

        // Assert: a lost connection (backed off), well before the server's limit.
        Assert.Equal("UNAVAILABLE", FailureStatus.Of(failure));
        Assert.True(FailureStatus.IsConnectionFailure(failure), failure.Message);
        Assert.Contains("ENHANCE_YOUR_CALM", failure.Message, StringComparison.Ordinal);
        Assert.True(elapsed < Bound, $"{elapsed}");
        Assert.True(await sent.Task.WaitAsync(Bound) < FloodLimit, "the client read the whole flood");
    }

    [Theory]
    [InlineData(0)]      // empty CONTINUATIONs: the frame count ends it
    [InlineData(16_000)] // full ones: the block's size ends it
    public async Task ContinuationFlood_IsAnsweredWithEnhanceYourCalm(int fragment)
    {
        // Arrange
        var sent = new TaskCompletionSource<long>();
        ScriptedHttp2Server.ServerConnection? connection = null;
        await using var server = new ScriptedHttp2Server(async c =>
        {
            connection = c;
            await c.SendAsync(H2.ServerSettings(), H2.SettingsAck());
            var id = await c.NextRequestAsync();
            await c.SendAsync(H2.HeadersFrame(id, H2.ResponseHeaders(), endHeaders: false));
            sent.TrySetResult(await c.FloodAsync(H2.Frame(H2.Continuation, 0, id, new byte[fragment]), FloodLimit));
        });
        using var client = new Http2GrpcClient(server.Address);

        // Act
        var (failure, _) = await FailureAsync(client);

        // Assert
        Assert.Equal("UNAVAILABLE", FailureStatus.Of(failure));
        Assert.True(FailureStatus.IsConnectionFailure(failure), failure.Message);
        Assert.Equal(0xbu, await connection!.GoAway.WaitAsync(Bound));
        Assert.True(await sent.Task.WaitAsync(Bound) < FloodLimit, "the client read the whole flood");
    }

    [Theory]
    [InlineData(false)] // static-table fields, 1 byte each for 60 decoded
    [InlineData(true)]  // a 4 KB field in the dynamic table, named again and again (before the SETTINGS ACK, when 4 KB are allowed)
    public async Task HpackBomb_FailsTheCall_AndTheConnectionGoesOn(bool dynamicTable)
    {
        // Arrange
        byte[] bomb = dynamicTable
            ? [.. H2.ResponseHeaders(), .. H2.IndexedLiteral("x-bomb", new string('a', 4000)), .. Enumerable.Repeat((byte)0xBE, 12_000)]
            : [.. H2.ResponseHeaders(), .. Enumerable.Repeat((byte)0x90, 2_500)];
        await using var server = new ScriptedHttp2Server(async c =>
        {
            await c.SendAsync(dynamicTable ? H2.ServerSettings() : [.. H2.ServerSettings(), .. H2.SettingsAck()]);
            var first = await c.NextRequestAsync();
            await c.SendAsync(H2.HeadersFrame(first, bomb, endStream: true));
            var second = await c.NextRequestAsync();
            await c.SendAsync(H2.HeadersFrame(second, H2.ResponseHeaders()), H2.DataFrame(second, Reply), H2.HeadersFrame(second, H2.Trailers("0"), endStream: true));
            await c.HoldAsync();
        });
        using var client = new Http2GrpcClient(server.Address);

        // Act
        var (failure, elapsed) = await FailureAsync(client);
        var next = await client.ComputeAsync(1).WaitAsync(Bound);

        // Assert: Grpc.Net.Client's status and words for the same answer, not a connection failure.
        Assert.Equal("UNAVAILABLE", FailureStatus.Of(failure));
        Assert.False(FailureStatus.IsConnectionFailure(failure));
        Assert.Contains("headers length exceeded the set limit of 65536 bytes", failure.Message, StringComparison.Ordinal);
        Assert.True(elapsed < TimeSpan.FromSeconds(5), $"{elapsed}");
        Assert.Equal(89, next.Result);
        Assert.Equal(1, server.Accepted);
    }

    [Fact]
    public async Task HpackBomb_IsCountedAsGrpcNetClientCountsIt()
    {
        await using var server = new ScriptedHttp2Server(async c =>
        {
            await c.SendAsync(H2.ServerSettings(), H2.SettingsAck());
            var id = await c.NextRequestAsync();
            await c.SendAsync(H2.HeadersFrame(id, [.. H2.ResponseHeaders(), .. Enumerable.Repeat((byte)0x90, 2_500)], endStream: true));
            await c.HoldAsync();
        });
        using var lean = new Http2GrpcClient(server.Address);
        using var grpcnet = new GrpcNetHarnessClient(server.Address);

        var leanFailure = await Record.ExceptionAsync(() => lean.ComputeAsync(1).WaitAsync(Bound));
        var grpcnetFailure = await Record.ExceptionAsync(() => grpcnet.ComputeAsync(1).WaitAsync(Bound));

        Assert.IsType<RpcException>(grpcnetFailure);
        Assert.Equal(FailureStatus.Of(grpcnetFailure), FailureStatus.Of(leanFailure!));
        Assert.Equal(FailureStatus.IsConnectionFailure(grpcnetFailure), FailureStatus.IsConnectionFailure(leanFailure!));
    }

    [Theory]
    [InlineData(0x7FFF_FFFFu)]     // 2^31-1
    [InlineData(4 * 1024 * 1024 + 1u)] // one byte above the 4 MiB default
    public async Task LengthPrefix_AboveTheMaximumMessage_FailsAsResourceExhausted_BeforeBuffering(uint declared)
    {
        // Arrange: the prefix and a few bytes; the server waits for the client's reset.
        ScriptedHttp2Server.ServerConnection? connection = null;
        await using var server = new ScriptedHttp2Server(async c =>
        {
            connection = c;
            await c.SendAsync(H2.ServerSettings(), H2.SettingsAck());
            var id = await c.NextRequestAsync();
            await c.SendAsync(H2.HeadersFrame(id, H2.ResponseHeaders()), H2.DataFrame(id, H2.Message(new byte[100], declared)));
            await c.HoldAsync();
        });
        using var client = new Http2GrpcClient(server.Address);

        // Act
        var (failure, _) = await FailureAsync(client);
        var resets = await EventuallyAsync(() => Snapshot(connection!.Resets), r => r.Count > 0);

        // Assert: Grpc.Net.Client's status for a message above its MaxReceiveMessageSize, and the stream cancelled.
        Assert.Equal("RESOURCE_EXHAUSTED", FailureStatus.Of(failure));
        Assert.False(FailureStatus.IsConnectionFailure(failure));
        Assert.Equal((1, 0x8u), Assert.Single(resets));
    }

    [Fact]
    public async Task MessageOfFiveMiB_IsRead_WhenTheMaximumIsRaised()
    {
        // Arrange: a reply of 5 MiB (an unknown field the parser skips), in 16 KB frames.
        var big = new byte[5 * 1024 * 1024];
        var message = H2.Message([0x08, 0x59, .. UnknownField(big)]); // Result = 89, then the field
        await using var server = new ScriptedHttp2Server(async c =>
        {
            await c.SendAsync(H2.ServerSettings(), H2.SettingsAck());
            var id = await c.NextRequestAsync();
            await c.SendAsync(H2.HeadersFrame(id, H2.ResponseHeaders()));
            for (var at = 0; at < message.Length; at += 16_384)
            {
                await c.SendAsync(H2.DataFrame(id, message.AsSpan(at, Math.Min(16_384, message.Length - at))));
            }

            await c.SendAsync(H2.HeadersFrame(id, H2.Trailers("0"), endStream: true));
            await c.HoldAsync();
        });
        using var client = new Http2GrpcClient(server.Address, maxReceiveMessageSize: 8 * 1024 * 1024);

        // Act
        var reply = await client.ComputeAsync(1).WaitAsync(Bound);

        // Assert
        Assert.Equal(89, reply.Result);
    }

    [Fact]
    public async Task DataPastTheStreamsReceiveWindow_IsAFlowControlError()
    {
        // Arrange: the headers, then DATA frames of padding only (256 bytes each against the window), without end.
        var sent = new TaskCompletionSource<long>();
        ScriptedHttp2Server.ServerConnection? connection = null;
        await using var server = new ScriptedHttp2Server(async c =>
        {
            connection = c;
            await c.SendAsync(H2.ServerSettings(), H2.SettingsAck());
            var id = await c.NextRequestAsync();
            await c.SendAsync(H2.HeadersFrame(id, H2.ResponseHeaders()));
            sent.TrySetResult(await c.FloodAsync(H2.Frame(H2.Data, 0x8, id, [255, .. new byte[255]]), FloodLimit));
        });
        using var client = new Http2GrpcClient(server.Address);

        // Act
        var (failure, _) = await FailureAsync(client);

        // Assert
        Assert.Equal("UNAVAILABLE", FailureStatus.Of(failure));
        Assert.True(FailureStatus.IsConnectionFailure(failure), failure.Message);
        Assert.Contains("FLOW_CONTROL_ERROR", failure.Message, StringComparison.Ordinal);
        Assert.Equal(0x3u, await connection!.GoAway.WaitAsync(Bound));
        Assert.True(await sent.Task.WaitAsync(Bound) < FloodLimit, "the client read the whole flood");
    }

    [Theory]
    [InlineData(true, "UNAVAILABLE")] // after the server acknowledged SETTINGS_HEADER_TABLE_SIZE 0: a COMPRESSION_ERROR
    [InlineData(false, "OK")]         // before: the protocol's 4,096 bytes still hold
    public async Task TableSizeUpdate_AboveWhatTheClientAdvertised_IsACompressionError(bool acknowledged, string expected)
    {
        // Arrange: a dynamic table size update to 4,096 at the start of the response's headers.
        ScriptedHttp2Server.ServerConnection? connection = null;
        await using var server = new ScriptedHttp2Server(async c =>
        {
            connection = c;
            await c.SendAsync(acknowledged ? [.. H2.ServerSettings(), .. H2.SettingsAck()] : H2.ServerSettings());
            var id = await c.NextRequestAsync();
            await c.SendAsync(
                H2.HeadersFrame(id, [0x3F, 0xE1, 0x1F, .. H2.ResponseHeaders()]),
                H2.DataFrame(id, Reply),
                H2.HeadersFrame(id, H2.Trailers("0"), endStream: true));
            await c.HoldAsync();
        });
        using var client = new Http2GrpcClient(server.Address);

        // Act
        var failure = await Record.ExceptionAsync(() => client.ComputeAsync(1).WaitAsync(Bound));

        // Assert
        Assert.Equal(expected, failure is null ? "OK" : FailureStatus.Of(failure));
        if (acknowledged)
        {
            Assert.True(FailureStatus.IsConnectionFailure(failure!), failure!.Message);
            Assert.Equal(0x9u, await connection!.GoAway.WaitAsync(Bound));
        }
    }

    [Theory]
    [InlineData("abc", "abc")]
    [InlineData("", "")]
    public async Task NonNumericGrpcStatus_IsInternal_AndNamesTheValue(string value, string quoted)
    {
        await using var server = Answering(id => H2.HeadersFrame(id, [.. H2.ResponseHeaders(), .. H2.Trailers(value)], endStream: true));
        using var lean = new Http2GrpcClient(server.Address);
        using var grpcnet = new GrpcNetHarnessClient(server.Address);

        var leanFailure = await Record.ExceptionAsync(() => lean.ComputeAsync(1).WaitAsync(Bound));
        var grpcnetFailure = await Record.ExceptionAsync(() => grpcnet.ComputeAsync(1).WaitAsync(Bound));

        Assert.Equal("INTERNAL", FailureStatus.Of(leanFailure!));
        Assert.Equal(FailureStatus.Of(grpcnetFailure!), FailureStatus.Of(leanFailure!));
        Assert.EndsWith($"Unexpected grpc-status value: {quoted}", ((RpcException)leanFailure!).Status.Detail, StringComparison.Ordinal);
    }

    [Fact]
    public async Task LongMalformedGrpcStatus_IsQuotedOnlyInPart()
    {
        await using var server = Answering(id => H2.HeadersFrame(id, [.. H2.ResponseHeaders(), .. H2.Trailers(new string('x', 10_000))], endStream: true));
        using var client = new Http2GrpcClient(server.Address);

        var failure = await Assert.ThrowsAsync<RpcException>(() => client.ComputeAsync(1).WaitAsync(Bound));

        Assert.Equal(StatusCode.Internal, failure.StatusCode);
        Assert.True(failure.Status.Detail.Length < 200, failure.Status.Detail);
    }

    [Fact]
    public async Task ConnectionFailingWhileCallsAreOpened_LeavesNoCallBehind()
    {
        // Arrange: each connection closes as soon as its first stream arrives, while the writer still opens the
        // thousands of calls that waited for the server's SETTINGS.
        await using var server = new ScriptedHttp2Server(async c =>
        {
            await c.SendAsync(H2.ServerSettings((0x3, 100_000)), H2.SettingsAck());
            await c.NextRequestAsync();
            c.Socket.Close();
        });
        var calls = new List<Task>();

        // Act: 10 rounds of 3,000 calls started at once on a new client.
        for (var round = 0; round < 10; round++)
        {
            using var client = new Http2GrpcClient(server.Address);
            var started = Enumerable.Range(0, 3000).Select(_ => client.ComputeAsync(1)).ToList();
            calls.AddRange(started);
            await Task.WhenAny(Task.WhenAll(started), Task.Delay(Bound));
        }

        // Assert: every call ended, each as a lost connection.
        Assert.True(calls.All(c => c.IsCompleted), $"{calls.Count(c => !c.IsCompleted)} of {calls.Count} calls never ended");
        Assert.All(calls, c => Assert.True(FailureStatus.IsConnectionFailure(c.Exception!.InnerException!)));
    }

    [Fact]
    public async Task ProtocolErrorOnEveryConnection_IsBackedOff_AsARefusedConnectionIs()
    {
        // Arrange: every connection answers its first call with a malformed header block (HPACK index 0).
        await using var server = Answering(id => H2.HeadersFrame(id, [0x80], endStream: true));
        using var client = new Http2GrpcClient(server.Address);
        var backoff = new Harness.LoadTests.Engine.FailureBackoff(TimeSpan.FromMilliseconds(100), TimeSpan.FromSeconds(2));
        var calls = 0;
        var connectionFailures = 0;

        // Act: 10 users for 3 s, each waiting after a connection failure as the engine's closed model does.
        var users = Enumerable.Range(0, 10).Select(async _ =>
        {
            var clock = Stopwatch.StartNew();
            for (var streak = 0; clock.Elapsed < TimeSpan.FromSeconds(3);)
            {
                var failure = await Record.ExceptionAsync(() => client.ComputeAsync(1).WaitAsync(Bound));
                Interlocked.Increment(ref calls);
                if (failure is not null && FailureStatus.IsConnectionFailure(failure))
                {
                    Interlocked.Increment(ref connectionFailures);
                    streak++;
                    await Task.Delay(TimeSpan.FromTicks(Math.Min(backoff.Max.Ticks, backoff.Initial.Ticks << Math.Min(streak - 1, 20))));
                }
                else
                {
                    streak = 0;
                }
            }
        });
        await Task.WhenAll(users).WaitAsync(Bound);

        // Assert: every failure a connection failure, and a handful of connections instead of thousands.
        Assert.Equal(calls, connectionFailures);
        Assert.True(server.Accepted <= 100, $"{server.Accepted} connections in 3 s");
    }

    /// <summary>A server that acknowledges the client's SETTINGS and answers every call with <paramref name="answer"/>.</summary>
    private static ScriptedHttp2Server Answering(Func<int, byte[]> answer) => new(async c =>
    {
        await c.SendAsync(H2.ServerSettings(), H2.SettingsAck());
        while (true)
        {
            var id = await c.NextRequestAsync();
            await c.SendAsync(answer(id));
        }
    });

    private static async Task<(Exception Failure, TimeSpan Elapsed)> FailureAsync(Http2GrpcClient client)
    {
        var clock = Stopwatch.StartNew();
        var failure = await Record.ExceptionAsync(() => client.ComputeAsync(1).WaitAsync(Bound));
        Assert.NotNull(failure);
        Assert.IsNotType<TimeoutException>(failure);
        return (failure, clock.Elapsed);
    }

    private static async Task<T> EventuallyAsync<T>(Func<T> read, Func<T, bool> done)
    {
        var clock = Stopwatch.StartNew();
        var value = read();
        while (!done(value) && clock.Elapsed < Bound)
        {
            await Task.Delay(20);
            value = read();
        }

        return value;
    }

    private static List<(int Stream, uint Code)> Snapshot(List<(int Stream, uint Code)> resets)
    {
        lock (resets)
        {
            return [.. resets];
        }
    }

    /// <summary>A length-delimited protobuf field of number 15, which ComputeReply does not have: its parser skips it.</summary>
    private static byte[] UnknownField(byte[] bytes)
    {
        var field = new List<byte> { (15 << 3) | 2 };
        for (var length = (uint)bytes.Length; ; length >>= 7)
        {
            field.Add((byte)(length < 0x80 ? length : (length & 0x7F) | 0x80));
            if (length < 0x80)
            {
                break;
            }
        }

        return [.. field, .. bytes];
    }
}
