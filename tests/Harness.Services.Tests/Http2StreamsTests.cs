using Grpc.Net.Client;
using Harness.Contracts.Grpc;
using Harness.Metrics;

namespace Harness.Services.Tests;

/// <summary>
/// One HTTP/2 connection carries as many gRPC calls at once as the client sends: Kestrel's default
/// of 100 streams per connection would leave the rest queued in a client that keeps to one connection.
/// </summary>
public sealed class Http2StreamsTests
{
    private const int Calls = 1_000;

    [Fact]
    public async Task OneConnection_HoldsAThousandCallsInFlightAtOnce()
    {
        // Arrange: a channel that may not open a second connection, as grpc-js on one channel does not.
        await using var harness = await InProcessHarness.StartAsync(Stack.Grpc, "threadpool");
        using var channel = GrpcChannel.ForAddress(harness.ServiceAddress, new GrpcChannelOptions
        {
            HttpHandler = new SocketsHttpHandler { EnableMultipleHttp2Connections = false },
            DisposeHttpClient = true,
        });
        var client = new HarnessService.HarnessServiceClient(channel);
        var request = new CallThirdPartyRequest { Fanout = 1, DelayMs = 2_000, Style = "task-delay" };
        await client.CallThirdPartyAsync(new CallThirdPartyRequest { Fanout = 1, DelayMs = 1, Style = "task-delay" });

        // Act
        var replies = await Task.WhenAll(Enumerable.Range(0, Calls).Select(async _ =>
            await client.CallThirdPartyAsync(request, deadline: DateTime.UtcNow.AddSeconds(60))));
        var peak = await harness.ReadAsync(
            MetricNames.WithLabel(MetricNames.OperationsExecutingPeak, MetricNames.OperationLabel, MetricNames.CallThirdPartyOperation));

        // Assert: the service's own count of operations executing at once, not the wall time.
        Assert.All(replies, r => Assert.Equal(1, r.Calls));
        Assert.Equal(Calls, peak);
    }
}
