using System.Diagnostics;
using Grpc.Core;
using Grpc.Net.Client;
using Harness.Contracts;
using Harness.Contracts.Grpc;
using Harness.Metrics;

namespace Harness.Services.Tests;

/// <summary>
/// An abandoned Compute stops: its executing count drops to 0 long before the loop could have ended,
/// and it counts as failed, so the call's core and scheduling slot are free again.
/// </summary>
public sealed class ComputeCancellationTests
{
    private const int Iterations = 2_000_000_000;
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(2);

    public enum Abandon
    {
        /// <summary>A 300 ms gRPC deadline, or the WCF client's 300 ms send timeout on SOAP.</summary>
        Deadline,

        /// <summary>The client cancels its call after 300 ms.</summary>
        Cancel,
    }

    [Theory]
    [InlineData(Stack.Grpc, Abandon.Deadline)]
    [InlineData(Stack.Grpc, Abandon.Cancel)]
    [InlineData(Stack.Soap, Abandon.Deadline)]
    public async Task AbandonedCompute_StopsAndCountsAsFailed(Stack stack, Abandon abandon)
    {
        // Arrange: iocp, so the call also holds one of N slots while it runs.
        await using var harness = await InProcessHarness.StartAsync(stack, "iocp");
        var fullLoop = await EstimateFullLoopAsync(harness);
        Assert.True(fullLoop > 3 * Bound, $"the whole loop takes only {fullLoop.TotalSeconds:F1} s here; the bound would prove nothing");

        // Act
        var error = await Record.ExceptionAsync(() => CallAndAbandonAsync(harness, stack, abandon));
        var stopwatch = Stopwatch.StartNew();
        double executing;
        while ((executing = await harness.ReadAsync(Sample(MetricNames.OperationsExecuting))) > 0 && stopwatch.Elapsed < Bound)
        {
            await Task.Delay(50);
        }

        // Assert
        Assert.NotNull(error);
        Assert.True(executing == 0, $"Compute still executing {stopwatch.Elapsed.TotalSeconds:F1} s after the client gave up ({error.GetType().Name})");
        Assert.Equal(1, await harness.ReadAsync(Sample(MetricNames.OperationsFailedTotal)));
        Assert.Equal(1, await harness.ReadAsync(Sample(MetricNames.OperationsCompletedTotal)));
    }

    private static async Task CallAndAbandonAsync(InProcessHarness harness, Stack stack, Abandon abandon)
    {
        var giveUpAfter = TimeSpan.FromMilliseconds(300);
        if (stack == Stack.Soap)
        {
            // The WCF client's send timeout aborts the HTTP request, which closes its connection.
            using var soap = new HarnessSoapClient(harness.ServiceAddress, giveUpAfter);
            await soap.ComputeAsync(Iterations);
            return;
        }

        using var channel = GrpcChannel.ForAddress(harness.ServiceAddress);
        var grpc = new HarnessService.HarnessServiceClient(channel);
        var request = new ComputeRequest { Iterations = Iterations };
        if (abandon == Abandon.Deadline)
        {
            var ex = await Assert.ThrowsAsync<RpcException>(async () => await grpc.ComputeAsync(request, deadline: DateTime.UtcNow + giveUpAfter));
            Assert.Equal(StatusCode.DeadlineExceeded, ex.StatusCode);
            throw ex;
        }

        using var cancellation = new CancellationTokenSource(giveUpAfter);
        await grpc.ComputeAsync(request, cancellationToken: cancellation.Token);
    }

    // One warm call (counted as completed), timed to scale up to the full loop.
    private static async Task<TimeSpan> EstimateFullLoopAsync(InProcessHarness harness)
    {
        const int Probe = 20_000_000;
        using var client = harness.CreateClient();
        var reply = await client.ComputeAsync(Probe);
        return TimeSpan.FromMilliseconds(reply.ElapsedMs * ((double)Iterations / Probe));
    }

    private static string Sample(string family) =>
        MetricNames.WithLabel(family, MetricNames.OperationLabel, MetricNames.ComputeOperation);
}
