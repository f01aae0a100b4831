using System.Diagnostics;
using System.Net;
using Harness.LoadTests.Hosting;
using Harness.Metrics;
using Xunit.Abstractions;

namespace Harness.Services.Tests;

/// <summary>The stub must hold at least 10,000 concurrent waiting requests without a thread each.</summary>
[Trait("Category", "Measurement")]
public sealed class StubCapacityTests(ITestOutputHelper output)
{
    private const int Concurrent = 10_000;

    [Fact]
    public async Task Stub_HoldsTenThousandConcurrentWaitingRequests()
    {
        // Arrange: the stub in its own process, so the two ends' sockets do not share one descriptor limit.
        await using var stub = await LocalProcess.StartAsync("stub", "Harness.ThirdPartyStub", [], CancellationToken.None);
        using var handler = new SocketsHttpHandler
        {
            MaxConnectionsPerServer = int.MaxValue,
            ConnectTimeout = TimeSpan.FromSeconds(30),
        };
        using var http = new HttpClient(handler) { BaseAddress = stub.Address, Timeout = TimeSpan.FromSeconds(90) };
        var stopwatch = Stopwatch.StartNew();

        // Act: every request waits 10 s, long enough for all of them to be in flight together.
        var requests = Enumerable.Range(0, Concurrent)
            .Select(_ => http.GetAsync("delay?ms=10000"))
            .ToArray();
        double peakWaiting = 0, threadsAtPeak = 0;
        while (stopwatch.Elapsed < TimeSpan.FromSeconds(60) && peakWaiting < Concurrent && !requests.All(r => r.IsCompleted))
        {
            var waiting = await stub.ReadAsync(MetricNames.StubWaitingRequests);
            if (waiting > peakWaiting)
            {
                peakWaiting = waiting;
                threadsAtPeak = await stub.ReadAsync(MetricNames.ProcessThreads);
            }

            await Task.Delay(250);
        }

        var responses = await Task.WhenAll(requests);
        var workingSet = await stub.ReadAsync(MetricNames.ProcessWorkingSetBytes);

        // Assert
        output.WriteLine(
            $"stub: peak {peakWaiting} concurrent waiting requests, {threadsAtPeak} OS threads at the peak, " +
            $"working set {workingSet / 1048576:F0} MiB after, all answered in {stopwatch.Elapsed.TotalSeconds:F1} s");
        Assert.Equal(Concurrent, peakWaiting);
        Assert.All(responses, r => Assert.Equal(HttpStatusCode.OK, r.StatusCode));
        foreach (var response in responses)
        {
            response.Dispose();
        }
    }
}
