using Grpc.Health.V1;
using Grpc.Net.Client;
using Harness.Metrics;

namespace Harness.Services.Tests;

/// <summary>The gRPC service answers the standard grpc.health.v1 check, as Kubernetes' gRPC probe asks it.</summary>
public sealed class GrpcHealthTests
{
    [Theory]
    [InlineData("threadpool")]
    [InlineData("iocp")]
    [InlineData("custompool")]
    public async Task HealthCheck_OnTheGrpcPort_IsServing(string mode)
    {
        // Arrange
        await using var harness = await InProcessHarness.StartAsync(Stack.Grpc, mode);
        using var channel = GrpcChannel.ForAddress(harness.ServiceAddress);
        var health = new Health.HealthClient(channel);

        // Act
        var reply = await health.CheckAsync(new HealthCheckRequest(), deadline: DateTime.UtcNow.AddSeconds(10));

        // Assert
        Assert.Equal(HealthCheckResponse.Types.ServingStatus.Serving, reply.Status);
    }

    [Theory]
    [InlineData("iocp")]
    [InlineData("custompool")]
    public async Task HealthChecks_AreNoSchedulerItems(string mode)
    {
        // Arrange: the mode's interceptor hops the harness service's calls only; a Check queued on the scheduler
        // would wait behind the workload (ProbeLatencyTests measures that) and count as one of its items.
        await using var harness = await InProcessHarness.StartAsync(Stack.Grpc, mode);
        using var channel = GrpcChannel.ForAddress(harness.ServiceAddress);
        var health = new Health.HealthClient(channel);
        var completed = MetricNames.WithLabel(MetricNames.SchedulerCompletedTotal, MetricNames.ModeLabel, mode);
        using var client = harness.CreateClient();
        await client.ComputeAsync(1000);

        // The scheduler counts an item once its callback returns, which may be just after the reply went out.
        var before = await harness.ReadAsync(completed);
        for (var waited = 0; before < 1 && waited < 40; waited++)
        {
            await Task.Delay(50);
            before = await harness.ReadAsync(completed);
        }

        // Act
        for (var i = 0; i < 10; i++)
        {
            await health.CheckAsync(new HealthCheckRequest(), deadline: DateTime.UtcNow.AddSeconds(10));
        }

        var after = await harness.ReadAsync(completed);

        // Assert: the Compute did count, so the counter is live; the Checks did not.
        Assert.True(before >= 1, $"the Compute call was no scheduler item either: {before}");
        Assert.Equal(before, after);
    }
}
