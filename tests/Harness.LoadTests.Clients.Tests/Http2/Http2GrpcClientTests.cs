using Grpc.Core;
using Harness.Contracts;
using Harness.LoadTests.Clients.Grpc;
using Harness.LoadTests.Clients.Grpc.Http2;
using Harness.LoadTests.Hosting;

namespace Harness.LoadTests.Clients.Tests.Http2;

/// <summary>
/// The lean gRPC client (<c>--grpc-client lean</c>, the default) and Grpc.Net.Client (<c>grpcnet</c>) before the same
/// Kestrel answers: the same reply, and every failure counted under the same status with the same verdict on backing
/// off (<see cref="FailureStatus"/>), so the default client changes no failure's name.
/// </summary>
public sealed class Http2GrpcClientTests : IAsyncLifetime
{
    private GrpcTestServer _server = null!;

    public async Task InitializeAsync() => _server = await GrpcTestServer.StartAsync();

    public async Task DisposeAsync() => await _server.DisposeAsync();

    [Fact]
    public async Task Reply_IsTheGeneratedType_AsGrpcNetClientsIs()
    {
        using var lean = new Http2GrpcClient(_server.Address);
        using var grpcnet = new GrpcNetHarnessClient(_server.Address);

        var leanReply = await lean.ComputeAsync(GrpcTestServer.Ok);
        var grpcnetReply = await grpcnet.ComputeAsync(GrpcTestServer.Ok);

        Assert.Equal(grpcnetReply, leanReply);
        Assert.Equal(89, leanReply.Result);
    }

    [Theory]
    [InlineData(GrpcTestServer.InvalidArgument, "INVALID_ARGUMENT")]
    [InlineData(GrpcTestServer.Http503, "UNAVAILABLE")]
    [InlineData(GrpcTestServer.Http404, "UNIMPLEMENTED")]
    [InlineData(GrpcTestServer.RefusedStream, "UNAVAILABLE")]
    [InlineData(GrpcTestServer.CancelStream, "CANCELLED")]
    [InlineData(GrpcTestServer.InternalErrorStream, "INTERNAL")]
    [InlineData(GrpcTestServer.DropConnection, "UNAVAILABLE")]
    public async Task Failure_IsCountedAsGrpcNetClientsIs(int answer, string expected)
    {
        // Arrange
        using var lean = new Http2GrpcClient(_server.Address);
        using var grpcnet = new GrpcNetHarnessClient(_server.Address);

        // Act
        var leanFailure = await Record.ExceptionAsync(() => lean.ComputeAsync(answer));
        var grpcnetFailure = await Record.ExceptionAsync(() => grpcnet.ComputeAsync(answer));

        // Assert
        Assert.NotNull(leanFailure);
        Assert.NotNull(grpcnetFailure);
        Assert.Equal(expected, FailureStatus.Of(grpcnetFailure));
        Assert.Equal(FailureStatus.Of(grpcnetFailure), FailureStatus.Of(leanFailure));
        Assert.Equal(FailureStatus.IsConnectionFailure(grpcnetFailure), FailureStatus.IsConnectionFailure(leanFailure));
    }

    [Fact]
    public async Task ServersStatusMessage_IsPercentDecoded()
    {
        using var lean = new Http2GrpcClient(_server.Address);

        var ex = await Assert.ThrowsAsync<RpcException>(() => lean.ComputeAsync(GrpcTestServer.InvalidArgument));

        Assert.Equal("iterations 100% wrong", ex.Status.Detail);
        Assert.False(FailureStatus.IsConnectionFailure(ex));
    }

    [Fact]
    public async Task ClosedPort_IsAConnectionFailure_ForBothClients()
    {
        var address = new Uri($"http://127.0.0.1:{LoopbackPorts.Free(1)[0]}");
        using var lean = new Http2GrpcClient(address);
        using var grpcnet = new GrpcNetHarnessClient(address);

        var leanFailure = await Record.ExceptionAsync(() => lean.ComputeAsync(1));
        var grpcnetFailure = await Record.ExceptionAsync(() => grpcnet.ComputeAsync(1));

        Assert.NotNull(leanFailure);
        Assert.Equal("UNAVAILABLE", FailureStatus.Of(leanFailure));
        Assert.Equal(FailureStatus.Of(grpcnetFailure!), FailureStatus.Of(leanFailure));
        Assert.True(FailureStatus.IsConnectionFailure(leanFailure), $"{leanFailure.GetType().Name}: {leanFailure.Message}");
        Assert.True(FailureStatus.IsConnectionFailure(grpcnetFailure!));
    }

    [Fact]
    public async Task DroppedConnection_IsAConnectionFailure_AndTheNextCallGetsANewOne()
    {
        using var lean = new Http2GrpcClient(_server.Address);

        var dropped = await Record.ExceptionAsync(() => lean.ComputeAsync(GrpcTestServer.DropConnection));
        var next = await lean.ComputeAsync(GrpcTestServer.Ok);

        Assert.NotNull(dropped);
        Assert.True(FailureStatus.IsConnectionFailure(dropped), $"{dropped.GetType().Name}: {dropped.Message}");
        Assert.Equal(89, next.Result);
    }

    [Fact]
    public async Task Cancellation_IsCancelled_AsGrpcNetClientsIs_AndTheConnectionGoesOn()
    {
        // Arrange
        using var lean = new Http2GrpcClient(_server.Address);
        using var grpcnet = new GrpcNetHarnessClient(_server.Address);
        using var cancel = new CancellationTokenSource(TimeSpan.FromMilliseconds(300));

        // Act
        var leanCall = Record.ExceptionAsync(() => lean.ComputeAsync(GrpcTestServer.Hang, cancel.Token));
        var grpcnetCall = Record.ExceptionAsync(() => grpcnet.ComputeAsync(GrpcTestServer.Hang, cancel.Token));
        var leanFailure = await leanCall;
        var grpcnetFailure = await grpcnetCall;
        var after = await lean.ComputeAsync(GrpcTestServer.Ok);

        // Assert
        Assert.Equal("CANCELLED", FailureStatus.Of(leanFailure!));
        Assert.Equal(FailureStatus.Of(grpcnetFailure!), FailureStatus.Of(leanFailure!));
        Assert.False(FailureStatus.IsConnectionFailure(leanFailure!));
        Assert.Equal(89, after.Result);
        Assert.Equal(1, lean.Connections);
    }

    [Fact]
    public async Task MoreCallsThanTheServersStreamLimit_AllSucceed()
    {
        // Arrange: a server that takes 2 streams per connection, 10 slow calls at once.
        await using var narrow = await GrpcTestServer.StartAsync(maxStreamsPerConnection: 2);
        using var lean = new Http2GrpcClient(narrow.Address);
        await lean.ComputeAsync(GrpcTestServer.Ok); // the server's SETTINGS known

        // Act
        var replies = await Task.WhenAll(Enumerable.Range(0, 10).Select(_ => lean.ComputeAsync(GrpcTestServer.Slow)));

        // Assert: every call answered, over more than one connection.
        Assert.All(replies, r => Assert.Equal(89, r.Result));
        Assert.True(lean.Connections >= 2, $"{lean.Connections} connection(s)");
    }

    [Fact]
    public async Task SpentStreamIds_MoveCallsToANewConnection()
    {
        using var lean = new Http2GrpcClient(_server.Address, streamsPerConnection: 3);

        for (var i = 0; i < 10; i++)
        {
            Assert.Equal(89, (await lean.ComputeAsync(GrpcTestServer.Ok)).Result);
        }

        Assert.True(lean.Connections <= 2, $"{lean.Connections} connections left open");
    }

    [Fact]
    public async Task ServerRestart_GoAway_ThenCallsGoToTheNewServer()
    {
        // Arrange
        var port = _server.Address.Port;
        using var lean = new Http2GrpcClient(_server.Address);
        using var grpcnet = new GrpcNetHarnessClient(_server.Address);
        await lean.ComputeAsync(GrpcTestServer.Ok);
        await grpcnet.ComputeAsync(GrpcTestServer.Ok);

        // Act: a graceful stop (GOAWAY), a call while nothing listens, and a new server on the same port.
        await _server.StopAsync();
        var leanDown = await Record.ExceptionAsync(() => lean.ComputeAsync(GrpcTestServer.Ok));
        var grpcnetDown = await Record.ExceptionAsync(() => grpcnet.ComputeAsync(GrpcTestServer.Ok));
        await _server.DisposeAsync();
        _server = await GrpcTestServer.StartAsync(port);
        var leanAfter = await lean.ComputeAsync(GrpcTestServer.Ok);
        var grpcnetAfter = await AfterBackOffAsync(() => grpcnet.ComputeAsync(GrpcTestServer.Ok));

        // Assert
        Assert.NotNull(leanDown);
        Assert.Equal(FailureStatus.Of(grpcnetDown!), FailureStatus.Of(leanDown));
        Assert.True(FailureStatus.IsConnectionFailure(leanDown), $"{leanDown.GetType().Name}: {leanDown.Message}");
        Assert.Equal(FailureStatus.IsConnectionFailure(grpcnetDown!), FailureStatus.IsConnectionFailure(leanDown));
        Assert.Equal(89, leanAfter.Result);
        Assert.Equal(89, grpcnetAfter.Result);
    }

    // Grpc.Net.Client's balancer waits out its own reconnect backoff after a refused connection, as the engine does.
    private static async Task<T> AfterBackOffAsync<T>(Func<Task<T>> call)
    {
        for (var attempt = 0; ; attempt++)
        {
            try
            {
                return await call();
            }
            catch (RpcException) when (attempt < 50)
            {
                await Task.Delay(200);
            }
        }
    }

    [Fact]
    public async Task UnixDomainSocket_IsServed()
    {
        var path = Path.Combine(Path.GetTempPath(), $"h2-{Guid.NewGuid():N}.sock");
        await using var server = await GrpcTestServer.StartAsync(unixSocket: path);
        using var lean = new Http2GrpcClient(server.Address);

        var reply = await lean.ComputeAsync(GrpcTestServer.Ok);

        Assert.Equal(89, reply.Result);
        Assert.Equal(LoadChannel.UnixScheme, server.Address.Scheme);
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public async Task ThousandCallsInFlight_SpreadOverConnectionsByTheStreamLimit_AllComplete(bool asynchronousContinuations)
    {
        // Arrange: Kestrel's default limit, 100 streams per connection.
        using var lean = new Http2GrpcClient(_server.Address, asynchronousContinuations);
        await lean.ComputeAsync(GrpcTestServer.Ok);

        // Act
        var replies = await Task.WhenAll(Enumerable.Range(0, 1000).Select(_ => lean.ComputeAsync(GrpcTestServer.Slow)));

        // Assert
        Assert.All(replies, r => Assert.Equal(89, r.Result));
        Assert.True(lean.Connections >= 10, $"{lean.Connections} connection(s)");
    }

    [Fact]
    public void GrpcSeries_NameTheirClient()
    {
        using var client = HarnessClients.Grpc(_server.Address, GrpcClients.Lean);
        using var other = HarnessClients.Grpc(_server.Address, GrpcClients.GrpcNet);

        Assert.IsType<Http2GrpcClient>(client);
        Assert.IsType<GrpcNetHarnessClient>(other);
    }
}
