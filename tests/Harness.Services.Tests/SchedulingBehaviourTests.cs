using System.Diagnostics;
using Harness.Contracts;
using Harness.LoadTests.Hosting;
using Harness.Metrics;
using Xunit.Abstractions;

namespace Harness.Services.Tests;

/// <summary>
/// The modes' defining behaviours, measured on services run as separate processes and read from their own
/// /metrics. Figures are written to the test output; scripts/measure-foundation.sh prints them.
/// </summary>
[Trait("Category", "Measurement")]
public sealed class SchedulingBehaviourTests(ITestOutputHelper output)
{
    /// <summary>
    /// The modes the blocking-calls test loads. Only custompool's figure is asserted; the other two are figures for
    /// scripts/measure-foundation.sh (HARNESS_MEASURE_ALL_MODES=1), which the suite leaves out: about 10 s each, asserted nowhere.
    /// </summary>
    private static readonly string[] BlockingCallModes =
        Environment.GetEnvironmentVariable("HARNESS_MEASURE_ALL_MODES") == "1" ? ["threadpool", "iocp", "custompool"] : ["custompool"];

    [Theory]
    [InlineData(Stack.Soap)]
    [InlineData(Stack.Grpc)]
    public async Task Iocp_UnderFourTimesCoresConcurrentComputeCalls_NeverExecutesMoreThanN(Stack stack)
    {
        // Arrange
        var n = Environment.ProcessorCount;
        await using var service = await LocalProcess.StartAsync(AssemblyOf(stack), AssemblyOf(stack), ["--Scheduling:Mode=iocp"], CancellationToken.None);
        using var client = CreateClient(stack, service.Address);
        var iterations = await CalibrateAsync(client, targetMs: 100);

        // Act: three waves of 4×N concurrent calls.
        for (var wave = 0; wave < 3; wave++)
        {
            await Task.WhenAll(Enumerable.Range(0, 4 * n).Select(_ => client.ComputeAsync(iterations)));
        }

        var peak = await service.ReadAsync(MetricNames.WithLabel(MetricNames.OperationsExecutingPeak, MetricNames.OperationLabel, MetricNames.ComputeOperation));
        var completed = await service.ReadAsync(MetricNames.WithLabel(MetricNames.OperationsCompletedTotal, MetricNames.OperationLabel, MetricNames.ComputeOperation));

        // Assert
        output.WriteLine($"{stack} iocp: N={n}, {completed} Compute calls of {iterations} iterations, peak executing at once = {peak}");
        Assert.Equal(12 * n + 1, completed);
        Assert.InRange(peak, 1, n);
    }

    [Theory]
    [InlineData(Stack.Soap)]
    [InlineData(Stack.Grpc)]
    public async Task FiftyConcurrentBlockingCallsOfOneSecond_CustomPoolFinishesInAboutOneDelay(Stack stack)
    {
        // Arrange
        await using var stub = await LocalProcess.StartAsync("stub", "Harness.ThirdPartyStub", [], CancellationToken.None);
        var times = new Dictionary<string, TimeSpan>();
        var failures = new Dictionary<string, int>();

        foreach (var mode in BlockingCallModes)
        {
            await using var service = await LocalProcess.StartAsync(AssemblyOf(stack), AssemblyOf(stack), [$"--Scheduling:Mode={mode}", $"--ThirdParty:BaseAddress={stub.Address}"], CancellationToken.None);
            using var client = CreateClient(stack, service.Address);
            await client.CallThirdPartyAsync(1, 1, "blocking");

            // Act
            // Every call's outcome is kept: a starved ThreadPool service may fail calls (Kestrel has been seen
            // resetting the HTTP/2 connection), and that is a result to report, not a broken test.
            var stopwatch = Stopwatch.StartNew();
            var outcomes = await Task.WhenAll(Enumerable.Range(0, 50).Select(async _ =>
            {
                try
                {
                    return (await client.CallThirdPartyAsync(1, 1000, "blocking")).Calls == 1 ? null : "incomplete";
                }
                catch (Exception ex)
                {
                    return ex.GetType().Name + ": " + ex.Message;
                }
            }));
            times[mode] = stopwatch.Elapsed;
            failures[mode] = outcomes.Count(o => o is not null);
            var threads = service.HasExited ? double.NaN : await service.ReadAsync(MetricNames.ProcessThreads);
            output.WriteLine(
                $"{stack} {mode}: 50 concurrent blocking 1 s calls finished in {times[mode].TotalSeconds:F2} s, " +
                $"{failures[mode]} failed{(failures[mode] > 0 ? " (" + outcomes.First(o => o is not null) + ")" : "")}; process threads after: {threads}");
        }

        // Assert
        Assert.Equal(0, failures["custompool"]);
        Assert.InRange(times["custompool"].TotalSeconds, 1.0, 2.5);
    }

    private static async Task<int> CalibrateAsync(IHarnessClient client, double targetMs)
    {
        const int Probe = 2_000_000;
        var reply = await client.ComputeAsync(Probe);
        return (int)Math.Clamp(Probe * targetMs / Math.Max(reply.ElapsedMs, 1), 10_000, 500_000_000);
    }

    private static string AssemblyOf(Stack stack) => stack == Stack.Soap ? "Harness.SoapService" : "Harness.GrpcService";

    private static IHarnessClient CreateClient(Stack stack, Uri address) => stack == Stack.Soap
        ? new HarnessSoapClient(address)
        : new HarnessGrpcClient(address);
}
