using System.Diagnostics;
using Grpc.Core;
using Grpc.Health.V1;
using Grpc.Net.Client;
using Harness.Contracts;
using Harness.LoadTests.Hosting;
using Harness.Metrics;
using Xunit.Abstractions;

namespace Harness.Services.Tests;

/// <summary>The third-party stub, started once for every case of <see cref="ProbeLatencyTests"/>.</summary>
public sealed class StubProcess : IAsyncLifetime
{
    private LocalProcess? _stub;

    public Uri Address => _stub?.Address ?? throw new InvalidOperationException("The stub has not started.");

    public async Task InitializeAsync() => _stub = await LocalProcess.StartAsync("stub", "Harness.ThirdPartyStub", [], CancellationToken.None);

    public async Task DisposeAsync()
    {
        if (_stub is not null)
        {
            await _stub.DisposeAsync();
        }
    }
}

/// <summary>
/// The probes never wait behind the workload: with every core busy with long Compute calls, and with blocking
/// third-party calls that starve the ThreadPool, the dedicated /healthz and /metrics answer each poll within a
/// second in every mode of both stacks, and so does a grpc.health.v1 Check under Compute in the iocp and custompool
/// modes, where it no longer queues on the mode's scheduler (nor counts as one of its items). In threadpool mode the
/// Check is measured, not judged: there it is a ThreadPool item like every request, queued behind the Computes still
/// waiting for a thread, and the pool adds one only after seconds when the CPU is busy (docs/scheduling.md, "Health
/// checks under load"). Services run as processes of their own, as the runner starts them; the latencies are
/// written to the test output.
/// </summary>
[Trait("Category", "Measurement")]
public sealed class ProbeLatencyTests(StubProcess stub, ITestOutputHelper output) : IClassFixture<StubProcess>
{
    private const int ComputeCalls = 6;
    private const int BlockingCalls = 40;
    private const int BlockingDelayMs = 3000;
    private const int Polls = 4;
    private static readonly TimeSpan ComputeCallLength = TimeSpan.FromSeconds(4);
    private static readonly TimeSpan PollInterval = TimeSpan.FromMilliseconds(300);

    // What a probe must meet; the bad case this guards against took 6-19 s.
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(1);

    // How long a probe is given before it counts as unanswered: beyond the bound, so slow answers are measured.
    private static readonly TimeSpan ProbeTimeout = TimeSpan.FromSeconds(2);

    [Theory]
    [InlineData(Stack.Soap, "threadpool")]
    [InlineData(Stack.Soap, "iocp")]
    [InlineData(Stack.Soap, "custompool")]
    [InlineData(Stack.Grpc, "threadpool")]
    [InlineData(Stack.Grpc, "iocp")]
    [InlineData(Stack.Grpc, "custompool")]
    public async Task Probes_UnderSaturation_AnswerWithinOneSecond_AndHealthChecksAreNoSchedulerItems(Stack stack, string mode)
    {
        // Arrange
        await using var service = await LocalProcess.StartAsync(
            stack.ToString(), AssemblyOf(stack), [$"--Scheduling:Mode={mode}", $"--ThirdParty:BaseAddress={stub.Address}"], CancellationToken.None);
        using var probes = new Probes(stack, service);
        var completed = MetricNames.WithLabel(MetricNames.SchedulerCompletedTotal, MetricNames.ModeLabel, mode);

        // Act 1: health checks alone, on every endpoint that answers them.
        var before = await service.ReadDedicatedAsync(completed);
        for (var i = 0; i < 20; i++)
        {
            await probes.PollAsync();
        }

        var after = await service.ReadDedicatedAsync(completed);

        // Act 2: long Compute calls on every core, then blocking third-party calls, each polled while it lasts.
        var underCompute = await UnderComputeAsync(stack, service, probes);
        var underBlocking = await UnderBlockingAsync(stack, service, probes);

        // Assert
        output.WriteLine($"{stack} {mode}: {ComputeCalls} Compute calls of ~{ComputeCallLength.TotalSeconds:0} s, peak executing {underCompute.Peak}: {Describe(underCompute.Polls)}");
        output.WriteLine($"{stack} {mode}: {BlockingCalls} blocking calls of {BlockingDelayMs} ms, peak executing {underBlocking.Peak}, peak ThreadPool queue {underBlocking.PeakPending}: {Describe(underBlocking.Polls)}");
        Assert.Equal(before, after);
        Assert.True(underCompute.Peak >= Environment.ProcessorCount, $"Compute never filled the cores: peak {underCompute.Peak}");
        Assert.True(underBlocking.Peak >= Environment.ProcessorCount, $"the blocking calls never arrived: peak {underBlocking.Peak}");
        foreach (var (phase, polls) in new[] { ("Compute", underCompute.Polls), ("blocking", underBlocking.Polls) })
        {
            AssertWithinBound(polls, p => p.DedicatedHealth, $"{phase}: dedicated /healthz");
            AssertWithinBound(polls, p => p.DedicatedMetrics, $"{phase}: dedicated /metrics");
        }

        if (stack == Stack.Grpc && mode != "threadpool")
        {
            AssertWithinBound(underCompute.Polls, p => p.GrpcCheck!, "Compute: grpc.health.v1 Check");
        }
    }

    private async Task<(double Peak, IReadOnlyList<Poll> Polls)> UnderComputeAsync(Stack stack, LocalProcess service, Probes probes)
    {
        using var client = CreateClient(stack, service.Address);
        var iterations = await CalibrateAsync(client);
        using var cancel = new CancellationTokenSource();
        var calls = Enumerable.Range(0, ComputeCalls).Select(_ => client.ComputeAsync(iterations, cancel.Token)).ToArray();
        var polls = await PollWhileAsync(probes);
        var peak = await service.ReadDedicatedAsync(Executing(MetricNames.OperationsExecutingPeak, MetricNames.ComputeOperation));

        // Abandoned calls stop within milliseconds (ComputeCancellationTests); SOAP's go with the client's connections.
        await cancel.CancelAsync();
        client.Dispose();
        await Task.WhenAll(calls.Select(c => c.ContinueWith(static _ => { }, TaskScheduler.Default)));
        await WaitIdleAsync(service, MetricNames.ComputeOperation);
        return (peak, polls);
    }

    private async Task<(double Peak, double PeakPending, IReadOnlyList<Poll> Polls)> UnderBlockingAsync(Stack stack, LocalProcess service, Probes probes)
    {
        using var client = CreateClient(stack, service.Address);
        using var cancel = new CancellationTokenSource();
        var calls = Enumerable.Range(0, BlockingCalls).Select(_ => client.CallThirdPartyAsync(1, BlockingDelayMs, "blocking", cancellationToken: cancel.Token)).ToArray();
        var polls = await PollWhileAsync(probes);
        var peak = await service.ReadDedicatedAsync(Executing(MetricNames.OperationsExecutingPeak, MetricNames.CallThirdPartyOperation));

        // The calls end with their delay; the service is disposed with them in flight.
        await cancel.CancelAsync();
        client.Dispose();
        await Task.WhenAll(calls.Select(c => c.ContinueWith(static _ => { }, TaskScheduler.Default)));
        return (peak, polls.Max(p => p.ThreadPoolPending), polls);
    }

    // The polls start on a fixed schedule, as a kubelet's periodic probes do, and are awaited together: a probe that is
    // measured but not judged (Kestrel's /healthz, the Check in threadpool mode) may take its whole ProbeTimeout when
    // starved, and waiting for it before the next poll pushed the later polls past the load they were meant to see.
    private static async Task<IReadOnlyList<Poll>> PollWhileAsync(Probes probes)
    {
        var polls = new List<Task<Poll>>();
        await Task.Delay(PollInterval);
        for (var i = 0; i < Polls; i++)
        {
            polls.Add(probes.PollAsync());
            await Task.Delay(PollInterval);
        }

        return await Task.WhenAll(polls);
    }

    // Iterations for one call of about ComputeCallLength, from one timed call.
    private static async Task<int> CalibrateAsync(IHarnessClient client)
    {
        const int Probe = 20_000_000;
        var reply = await client.ComputeAsync(Probe);
        return (int)Math.Clamp(Probe * ComputeCallLength.TotalMilliseconds / Math.Max(reply.ElapsedMs, 1), Probe, 2_000_000_000);
    }

    private static async Task WaitIdleAsync(LocalProcess service, string operation)
    {
        var waited = Stopwatch.StartNew();
        while (await service.ReadDedicatedAsync(Executing(MetricNames.OperationsExecuting, operation)) > 0 && waited.Elapsed < ProbeTimeout)
        {
            await Task.Delay(50);
        }
    }

    private static void AssertWithinBound(IReadOnlyList<Poll> polls, Func<Poll, Reading> read, string what)
    {
        var slow = polls.Select(read).Where(r => !r.Ok || r.Elapsed > Bound).ToList();
        Assert.True(slow.Count == 0, $"{what}: {slow.Count} of {polls.Count} polls not answered within {Bound.TotalSeconds:0} s ({string.Join(", ", slow)})");
    }

    private static string Describe(IReadOnlyList<Poll> polls)
    {
        static string Max(IEnumerable<Reading> readings) => readings.MaxBy(r => r.Ok ? r.Elapsed : TimeSpan.MaxValue)!.ToString();
        var text = $"dedicated /healthz max {Max(polls.Select(p => p.DedicatedHealth))}, dedicated /metrics max {Max(polls.Select(p => p.DedicatedMetrics))}, "
            + $"Kestrel /healthz max {Max(polls.Select(p => p.KestrelHealth))}";
        return polls[0].GrpcCheck is null ? text : text + $", grpc.health.v1 Check max {Max(polls.Select(p => p.GrpcCheck!))}";
    }

    private static string Executing(string family, string operation) => MetricNames.WithLabel(family, MetricNames.OperationLabel, operation);

    private static string AssemblyOf(Stack stack) => stack == Stack.Soap ? "Harness.SoapService" : "Harness.GrpcService";

    private static IHarnessClient CreateClient(Stack stack, Uri address) => stack == Stack.Soap
        ? new HarnessSoapClient(address)
        : new HarnessGrpcClient(address);

    /// <summary>One probe's answer: how long it took, and whether it came (in time, healthy).</summary>
    private sealed record Reading(TimeSpan Elapsed, bool Ok)
    {
        public override string ToString() => Ok ? $"{Elapsed.TotalMilliseconds:0} ms" : $"none in {Elapsed.TotalMilliseconds:0} ms";
    }

    /// <summary>Every probe once, at the same moment; the Kestrel /healthz is measured for the record, not judged.</summary>
    private sealed record Poll(Reading DedicatedHealth, Reading DedicatedMetrics, Reading KestrelHealth, Reading? GrpcCheck, double ThreadPoolPending);

    /// <summary>The probes a kubelet or the runner would send, each on connections of its own.</summary>
    private sealed class Probes : IDisposable
    {
        private readonly HttpClient _http = new() { Timeout = Timeout.InfiniteTimeSpan };
        private readonly GrpcChannel? _channel;
        private readonly Health.HealthClient? _health;
        private readonly LocalProcess _service;

        public Probes(Stack stack, LocalProcess service)
        {
            _service = service;
            if (stack == Stack.Grpc)
            {
                _channel = GrpcChannel.ForAddress(service.Address);
                _health = new Health.HealthClient(_channel);
            }
        }

        public async Task<Poll> PollAsync()
        {
            var metricsText = "";
            var health = TimeAsync(ct => GetOkAsync(new Uri(_service.MetricsAddress, "/healthz"), ct));
            var metrics = TimeAsync(async ct => (metricsText = await _http.GetStringAsync(new Uri(_service.MetricsAddress, "/metrics"), ct)).Length > 0);
            var kestrel = TimeAsync(ct => GetOkAsync(new Uri(_service.AdminAddress, "/healthz"), ct));
            var check = _health is null ? null : TimeAsync(async ct =>
                (await _health.CheckAsync(new HealthCheckRequest(), deadline: DateTime.UtcNow + ProbeTimeout, cancellationToken: ct)).Status
                    == HealthCheckResponse.Types.ServingStatus.Serving);
            await Task.WhenAll(new[] { health, metrics, kestrel, check }.OfType<Task<Reading>>());
            var pending = (await metrics).Ok ? Metrics.Sample(metricsText, MetricNames.ThreadPoolPendingWorkItems) : double.NaN;
            return new Poll(await health, await metrics, await kestrel, check is null ? null : await check, pending);
        }

        public void Dispose()
        {
            _http.Dispose();
            _channel?.Dispose();
        }

        private async Task<bool> GetOkAsync(Uri url, CancellationToken cancellationToken)
        {
            using var response = await _http.GetAsync(url, cancellationToken);
            return response.IsSuccessStatusCode;
        }

        private static async Task<Reading> TimeAsync(Func<CancellationToken, Task<bool>> probe)
        {
            using var timeout = new CancellationTokenSource(ProbeTimeout);
            var stopwatch = Stopwatch.StartNew();
            try
            {
                var ok = await probe(timeout.Token);
                return new Reading(stopwatch.Elapsed, ok);
            }
            catch (Exception ex) when (ex is HttpRequestException or OperationCanceledException or RpcException)
            {
                return new Reading(stopwatch.Elapsed, false);
            }
        }
    }
}
