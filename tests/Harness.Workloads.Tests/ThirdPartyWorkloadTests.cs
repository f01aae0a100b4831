using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using Harness.Agreements;
using Harness.Scheduling;

namespace Harness.Workloads.Tests;

public sealed class ThirdPartyWorkloadTests
{
    private static readonly WorkloadLimits Limits = new();

    [Theory]
    [InlineData(CallStyle.ThreadSleep, SchedulingMode.CustomPool)]
    [InlineData(CallStyle.TaskWait, SchedulingMode.CustomPool)]
    [InlineData(CallStyle.TaskDelay, SchedulingMode.CustomPool)]
    [InlineData(CallStyle.ThreadSleep, SchedulingMode.Iocp)]
    [InlineData(CallStyle.TaskDelay, SchedulingMode.ThreadPool)]
    public async Task FanOut_RunsAllCallsConcurrently(CallStyle style, SchedulingMode mode)
    {
        // Arrange
        using var scheduler = WorkSchedulerFactory.Create(new SchedulingOptions { Mode = mode, IocpConcurrency = 1 });
        var workload = new ThirdPartyWorkload(new HttpClient(), scheduler, Limits);

        // Act: up to three tries. A continuation here may wait for a ThreadPool thread that earlier tests' blocked
        // work still holds (seen once in CI: 1,121 ms); the question is whether the calls can overlap at all.
        var results = new List<ThirdPartyCallResult>();
        for (var attempt = 0; attempt < 3 && (results.Count == 0 || results[^1].Elapsed.TotalMilliseconds > 500); attempt++)
        {
            results.Add(await workload.ExecuteAsync(new ThirdPartyCallRequest(4, 150, style)));
        }

        // Assert: four 150 ms waits side by side, not one after another (Iocp with one slot included:
        // each call gives its slot up while it blocks). The ThreadPool is left out for sleeping styles: with
        // few threads it waits for starvation injection, which is the behaviour the harness measures.
        Assert.All(results, r => Assert.Equal(4, r.Calls));
        Assert.All(results, r => Assert.True(r.Elapsed.TotalMilliseconds >= 140, $"{r.Elapsed.TotalMilliseconds} ms"));
        Assert.True(
            results.Min(r => r.Elapsed.TotalMilliseconds) <= 500,
            string.Join(", ", results.Select(r => $"{r.Elapsed.TotalMilliseconds:F0} ms")));
    }

    [Fact]
    public async Task FanOut_WithParallelism_LimitsCallsInFlight()
    {
        // Arrange
        using var scheduler = WorkSchedulerFactory.Create(new SchedulingOptions { Mode = SchedulingMode.CustomPool });
        var workload = new ThirdPartyWorkload(new HttpClient(), scheduler, Limits);

        // Act
        var result = await workload.ExecuteAsync(new ThirdPartyCallRequest(4, 100, CallStyle.ThreadSleep, Parallelism: 2));

        // Assert: two waves of two.
        Assert.Equal(4, result.Calls);
        Assert.InRange(result.Elapsed.TotalMilliseconds, 190, 600);
        Assert.InRange(result.DistinctThreads, 1, 2);
    }

    [Fact]
    public async Task ThreadHoldingStyles_CompleteSynchronously_OthersDoNot()
    {
        // Arrange
        using var scheduler = WorkSchedulerFactory.Create(new SchedulingOptions { Mode = SchedulingMode.CustomPool });
        var workload = new ThirdPartyWorkload(new HttpClient(), scheduler, Limits);

        // Act
        var sleeping = workload.ExecuteAsync(new ThirdPartyCallRequest(1, 50, CallStyle.ThreadSleep));
        var delaying = workload.ExecuteAsync(new ThirdPartyCallRequest(1, 50, CallStyle.TaskDelay));

        // Assert
        Assert.True(sleeping.IsCompleted);
        Assert.False(delaying.IsCompleted);
        Assert.Equal(1, (await delaying).Calls);
    }

    [Theory]
    [InlineData(CallStyle.Blocking)]
    [InlineData(CallStyle.Async)]
    public async Task HttpStyles_CallTheStubsDelayEndpoint(CallStyle style)
    {
        // Arrange
        using var server = new TinyHttpServer();
        using var scheduler = WorkSchedulerFactory.Create(new SchedulingOptions { Mode = SchedulingMode.CustomPool });
        var workload = new ThirdPartyWorkload(new HttpClient { BaseAddress = server.Address }, scheduler, Limits);

        // Act
        var result = await workload.ExecuteAsync(new ThirdPartyCallRequest(3, 25, style));

        // Assert
        Assert.Equal(3, result.Calls);
        Assert.Equal(["/delay?ms=25", "/delay?ms=25", "/delay?ms=25"], server.Requests.Order());
    }

    [Theory]
    [InlineData(CallStyle.Blocking, 1)]
    [InlineData(CallStyle.Blocking, 3)]
    [InlineData(CallStyle.Async, 3)]
    public async Task UnreachableThirdParty_FailsTheOperation_AndTheSchedulerKeepsWorking(CallStyle style, int fanout)
    {
        // Arrange: a port nobody listens on.
        using var scheduler = WorkSchedulerFactory.Create(new SchedulingOptions { Mode = SchedulingMode.CustomPool });
        var closed = new Uri($"http://127.0.0.1:{ClosedPort()}/");
        var workload = new ThirdPartyWorkload(new HttpClient { BaseAddress = closed }, scheduler, Limits);

        // Act
        await Assert.ThrowsAsync<HttpRequestException>(async () => await workload.ExecuteAsync(new ThirdPartyCallRequest(fanout, 10, style)));
        var after = await workload.ExecuteAsync(new ThirdPartyCallRequest(2, 10, CallStyle.ThreadSleep));

        // Assert
        Assert.Equal(2, after.Calls);
    }

    [Fact]
    public async Task InvalidRequest_IsRejectedBeforeAnyCall()
    {
        using var scheduler = WorkSchedulerFactory.Create(new SchedulingOptions { Mode = SchedulingMode.CustomPool });
        var workload = new ThirdPartyWorkload(new HttpClient(), scheduler, new WorkloadLimits { MaxFanout = 2 });

        var ex = await Assert.ThrowsAsync<WorkloadArgumentException>(async () =>
            await workload.ExecuteAsync(new ThirdPartyCallRequest(3, 10, CallStyle.ThreadSleep)));

        Assert.Contains("Workloads__MaxFanout", ex.Message, StringComparison.Ordinal);
        Assert.Equal(0, scheduler.GetCounters().Completed);
    }

    private static int ClosedPort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }

    /// <summary>Answers every request at once with 200 and records its path and query.</summary>
    private sealed class TinyHttpServer : IDisposable
    {
        private readonly HttpListener _listener = new();
        private readonly List<string> _requests = [];
        private readonly Task _loop;

        public TinyHttpServer()
        {
            var port = ClosedPort();
            Address = new Uri($"http://127.0.0.1:{port}/");
            _listener.Prefixes.Add(Address.ToString());
            _listener.Start();
            _loop = Task.Run(ServeAsync);
        }

        public Uri Address { get; }

        public IReadOnlyList<string> Requests
        {
            get
            {
                lock (_requests)
                {
                    return [.. _requests];
                }
            }
        }

        public void Dispose()
        {
            _listener.Close();
            _loop.Wait(TimeSpan.FromSeconds(5));
        }

        private async Task ServeAsync()
        {
            var stopwatch = Stopwatch.StartNew();
            while (_listener.IsListening && stopwatch.Elapsed < TimeSpan.FromMinutes(1))
            {
                HttpListenerContext context;
                try
                {
                    context = await _listener.GetContextAsync();
                }
                catch (Exception ex) when (ex is HttpListenerException or ObjectDisposedException)
                {
                    return;
                }

                lock (_requests)
                {
                    _requests.Add(context.Request.RawUrl ?? "");
                }

                context.Response.StatusCode = 200;
                context.Response.Close();
            }
        }
    }
}
