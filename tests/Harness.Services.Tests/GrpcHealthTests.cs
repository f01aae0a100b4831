using Grpc.Health.V1;
using Grpc.Net.Client;
using Harness.Metrics;

namespace Harness.Services.Tests;

/// <summary>
/// The gRPC service answers the standard grpc.health.v1 check, as Kubernetes' gRPC probe asks it, and a Check is
/// never an item of the mode's scheduler: the mode's interceptor hops the harness service's calls only, and a Check
/// queued on the scheduler would wait behind the workload (ProbeLatencyTests measures that).
/// </summary>
public sealed class GrpcHealthTests
{
    [Theory]
    [InlineData("threadpool", 0)]
    [InlineData("iocp", 1)]
    [InlineData("custompool", 1)]
    public async Task HealthChecks_OnTheGrpcPort_AreServing_AndNoSchedulerItems(string mode, int itemsPerCompute)
    {
        // Arrange: one Compute first, which the scheduler counts in the modes that hop (so the counter is live).
        await using var harness = await InProcessHarness.StartAsync(Stack.Grpc, mode);
        using var channel = GrpcChannel.ForAddress(harness.ServiceAddress);
        var health = new Health.HealthClient(channel);
        var completed = MetricNames.WithLabel(MetricNames.SchedulerCompletedTotal, MetricNames.ModeLabel, mode);
        using var client = harness.CreateClient();
        await client.ComputeAsync(1000);

        // The scheduler counts an item once its callback returns, which may be just after the reply went out.
        var before = await harness.ReadAsync(completed);
        for (var waited = 0; before < itemsPerCompute && waited < 40; waited++)
        {
            await Task.Delay(50);
            before = await harness.ReadAsync(completed);
        }

        // Act
        var replies = new List<HealthCheckResponse.Types.ServingStatus>();
        for (var i = 0; i < 10; i++)
        {
            replies.Add((await health.CheckAsync(new HealthCheckRequest(), deadline: DateTime.UtcNow.AddSeconds(10))).Status);
        }

        var after = await harness.ReadAsync(completed);

        // Assert
        Assert.All(replies, status => Assert.Equal(HealthCheckResponse.Types.ServingStatus.Serving, status));
        Assert.Equal(itemsPerCompute, before);
        Assert.Equal(before, after);
    }
}
