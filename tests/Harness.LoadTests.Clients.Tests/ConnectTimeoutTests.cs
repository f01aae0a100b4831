using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using Harness.LoadTests.Clients.Grpc.Http2;
using Harness.LoadTests.Clients.Http1;
using Harness.LoadTests.Clients.Tests.Http1;

namespace Harness.LoadTests.Clients.Tests;

/// <summary>
/// A connection's setup waits at most 10 s, or the call's timeout when shorter (<see cref="CallTimeouts.ConnectTimeout"/>),
/// in both lean clients: against a listener whose accept queue is full (its SYNs dropped, as a blackhole's), a 1 s
/// timeout gives up the connect after about 1 s, not 10 s. The failures keep their names: HTTP/1.1's a connection
/// failure (so the user backs off), gRPC's call DEADLINE_EXCEEDED.
/// </summary>
public sealed class ConnectTimeoutTests
{
    private static readonly TimeSpan CallTimeout = TimeSpan.FromSeconds(1);

    // Well under the 10 s the connect waited before, well over the 1 s it now waits.
    private static readonly TimeSpan GaveUpBefore = TimeSpan.FromSeconds(6);

    [Theory]
    [InlineData(1_000, 1_000)]
    [InlineData(60_000, 10_000)]
    [InlineData(10_000, 10_000)]
    [InlineData(1, 1)]
    public void ConnectTimeout_IsTheCallTimeout_AtMost10s(int callMs, int connectMs) =>
        Assert.Equal(TimeSpan.FromMilliseconds(connectMs), CallTimeouts.ConnectTimeout(TimeSpan.FromMilliseconds(callMs)));

    [Fact]
    public async Task Http1_ConnectToABlackhole_GivesUpAtTheCallTimeout_AsAConnectionFailure()
    {
        // Arrange
        using var blackhole = Blackhole.Open();
        using var client = new Http1Client(new Uri($"http://127.0.0.1:{blackhole.Port}/svc"), CallTimeout, "");
        var clock = Stopwatch.StartNew();

        // Act
        var failure = await Record.ExceptionAsync(() => Http1ClientTests.PostAsync(client, "x").WaitAsync(GaveUpBefore * 2));

        // Assert: the connect's own failure (not the test's bound), as a refused connection's, so the user backs off.
        Assert.True(clock.Elapsed < GaveUpBefore, $"gave up after {clock.Elapsed}");
        var http = Assert.IsType<HttpRequestException>(failure);
        Assert.Equal(SocketError.TimedOut, Assert.IsType<SocketException>(http.InnerException).SocketErrorCode);
        Assert.Equal("connection", FailureStatus.Of(http));
        Assert.True(FailureStatus.IsConnectionFailure(http));
    }

    [Fact]
    public async Task Http2_ConnectToABlackhole_GivesUpAtTheCallTimeout_AndLeavesThePool()
    {
        // Arrange
        using var blackhole = Blackhole.Open();
        using var client = new Http2GrpcClient(new Uri($"http://127.0.0.1:{blackhole.Port}"), timeout: CallTimeout);
        var clock = Stopwatch.StartNew();

        // Act
        var failure = await Record.ExceptionAsync(() => client.ComputeAsync(1).WaitAsync(GaveUpBefore * 2));
        while (client.Connections > 0 && clock.Elapsed < GaveUpBefore * 2)
        {
            await Task.Delay(50);
        }

        // Assert: the call's status is its deadline's, as before, and the connection gave up its connect (it left the
        // pool) long before the 10 s it waited before.
        Assert.NotNull(failure);
        Assert.Equal("DEADLINE_EXCEEDED", FailureStatus.Of(failure));
        Assert.Equal(0, client.Connections);
        Assert.True(clock.Elapsed < GaveUpBefore, $"the connection left the pool after {clock.Elapsed}");
    }

    /// <summary>
    /// A loopback listener that never accepts, its accept queue filled, so the kernel drops further SYNs and a connect
    /// waits as for a host that does not answer. Made by connecting until a connect does not complete.
    /// </summary>
    private sealed class Blackhole : IDisposable
    {
        private const int MaxFillers = 16;
        private static readonly TimeSpan ProbeWait = TimeSpan.FromMilliseconds(500);

        private readonly Socket _listener;
        private readonly List<Socket> _fillers = [];

        private Blackhole(Socket listener) => _listener = listener;

        public int Port => ((IPEndPoint)_listener.LocalEndPoint!).Port;

        public static Blackhole Open()
        {
            var listener = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
            listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
            listener.Listen(0);
            var blackhole = new Blackhole(listener);
            for (var i = 0; i < MaxFillers; i++)
            {
                var filler = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
                blackhole._fillers.Add(filler);
                if (!filler.ConnectAsync(IPAddress.Loopback, blackhole.Port).Wait(ProbeWait))
                {
                    // This connect's SYN was dropped: the queue is full, and every connect from now on waits.
                    return blackhole;
                }
            }

            blackhole.Dispose();
            throw new InvalidOperationException($"the listener's accept queue did not fill after {MaxFillers} connects; no blackhole on this system");
        }

        public void Dispose()
        {
            foreach (var filler in _fillers)
            {
                filler.Dispose();
            }

            _listener.Dispose();
        }
    }
}
