using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Text;
using Harness.Metrics;
using Harness.SoapService;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;

namespace Harness.ServiceDefaults.Tests;

/// <summary>The starvation test caps this process's ThreadPool, so nothing else may run beside it.</summary>
[CollectionDefinition(nameof(StarvedThreadPool), DisableParallelization = true)]
public sealed class StarvedThreadPool;

[Collection(nameof(StarvedThreadPool))]
public sealed class DedicatedMetricsListenerTests
{
    // Generous: the read answers in milliseconds when it answers at all; a listener on the pool would never answer.
    private static readonly TimeSpan ReadTimeout = TimeSpan.FromSeconds(30);

    [Fact]
    public async Task Metrics_WhileEveryThreadPoolThreadIsBlocked_AnswerOnTheDedicatedPort()
    {
        // Arrange: the pool capped and every thread it may have blocked, with work items left queued behind them.
        await using var app = SoapApp.Build(["--Listen:Port=0", "--Listen:MetricsPort=0", "--Serilog:MinimumLevel:Default=Fatal"]);
        await app.StartAsync();
        var port = app.Services.GetRequiredService<DedicatedMetricsListener>().Port!.Value;
        ThreadPool.GetMaxThreads(out var maxWorkers, out var maxIo);
        ThreadPool.GetMinThreads(out var minWorkers, out _);
        // Not disposed: blockers still queued when the test ends run later and must find it set, not disposed.
        var release = new ManualResetEventSlim();
        string response, health;
        try
        {
            Assert.True(ThreadPool.SetMaxThreads(minWorkers, maxIo));
            var blockers = 4 * Math.Max(ThreadPool.ThreadCount, minWorkers) + 16;
            for (var i = 0; i < blockers; i++)
            {
                ThreadPool.UnsafeQueueUserWorkItem(_ => release.Wait(), null);
            }

            // Act: blocking I/O on this thread, which needs nothing from the pool.
            response = BlockingGet(port, "/metrics");
            health = BlockingGet(port, "/healthz");
        }
        finally
        {
            release.Set();
            ThreadPool.SetMaxThreads(maxWorkers, maxIo);
        }

        // Assert: it answered, and its snapshot was taken while work waited on the starved pool.
        Assert.StartsWith("HTTP/1.1 200 OK\r\n", response, StringComparison.Ordinal);
        Assert.True(ReadSample(response, MetricNames.ThreadPoolPendingWorkItems) >= 1, response);
        Assert.Contains($"\n{MetricNames.Info}{{", response, StringComparison.Ordinal);
        Assert.StartsWith("HTTP/1.1 200 OK\r\n", health, StringComparison.Ordinal);
        await app.StopAsync();
    }

    [Theory]
    [InlineData("GET /healthz HTTP/1.1", "HTTP/1.1 200 OK")]
    [InlineData("HEAD /healthz HTTP/1.1", "HTTP/1.1 200 OK")]
    [InlineData("GET /ready HTTP/1.1", "HTTP/1.1 404 Not Found")]
    [InlineData("POST /metrics HTTP/1.1", "HTTP/1.1 405 Method Not Allowed")]
    [InlineData("POST /healthz HTTP/1.1", "HTTP/1.1 405 Method Not Allowed")]
    [InlineData("garbage", "HTTP/1.1 404 Not Found")]
    [InlineData("GET /metrics?x=1 HTTP/1.1", "HTTP/1.1 200 OK")]
    public void Answer_ToARequestLine_GivesItsStatus(string requestLine, string expected)
    {
        var answer = Encoding.UTF8.GetString(DedicatedMetricsListener.Answer(requestLine, () => "metrics\n", HostState.Serving));

        Assert.StartsWith(expected + "\r\n", answer, StringComparison.Ordinal);
        Assert.Contains("\r\nConnection: close\r\n", answer, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(nameof(HostState.Starting), "HTTP/1.1 503 Service Unavailable", "Unhealthy: starting")]
    [InlineData(nameof(HostState.Serving), "HTTP/1.1 200 OK", "Healthy")]
    [InlineData(nameof(HostState.Stopping), "HTTP/1.1 503 Service Unavailable", "Unhealthy: stopping")]
    public void Healthz_FollowsTheHostsLifetime(string state, string expectedStatus, string expectedBody)
    {
        var answer = Encoding.UTF8.GetString(DedicatedMetricsListener.Answer("GET /healthz HTTP/1.1", () => "metrics\n", Enum.Parse<HostState>(state)));

        Assert.StartsWith(expectedStatus + "\r\n", answer, StringComparison.Ordinal);
        Assert.Contains("\r\n\r\n" + expectedBody, answer, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Healthz_BeforeTheHostHasStarted_Is503_ThenOnceStarted_Is200()
    {
        // Arrange: a hosted service started first holds the host's start, as a slow listener or warm-up would.
        var gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var builder = WebApplication.CreateBuilder(["--Listen:Port=0", "--Listen:MetricsPort=0", "--Serilog:MinimumLevel:Default=Fatal"]);
        builder.AddHarnessDefaults("test", defaultPort: 0);
        builder.Services.AddHostedService(_ => new HeldStart(gate.Task));
        await using var app = builder.Build();
        app.MapHarnessDefaults();
        var starting = app.StartAsync();
        var listener = app.Services.GetRequiredService<DedicatedMetricsListener>();
        var waited = System.Diagnostics.Stopwatch.StartNew();
        while (listener.Port is null && waited.Elapsed < ReadTimeout)
        {
            await Task.Delay(10);
        }

        // Act
        var before = BlockingGet(listener.Port!.Value, "/healthz");
        gate.SetResult();
        await starting;
        var after = BlockingGet(listener.Port.Value, "/healthz");

        // Assert
        Assert.StartsWith("HTTP/1.1 503 Service Unavailable\r\n", before, StringComparison.Ordinal);
        Assert.StartsWith("HTTP/1.1 200 OK\r\n", after, StringComparison.Ordinal);
        await app.StopAsync();
    }

    [Fact]
    public void Answer_WhenTheSnapshotFails_Is500WithTheReason_NotAnException()
    {
        // A process out of descriptors cannot open /proc/self/status; on this thread an exception would end the service.
        var answer = Encoding.UTF8.GetString(DedicatedMetricsListener.Answer(
            "GET /metrics HTTP/1.1", () => throw new IOException("Too many open files : '/proc/self/status'"), HostState.Serving));

        Assert.StartsWith("HTTP/1.1 500 Internal Server Error\r\n", answer, StringComparison.Ordinal);
        Assert.EndsWith("metrics could not be read: IOException: Too many open files : '/proc/self/status'\n", answer, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Start_WithoutMetricsPort_ListensOnNoExtraPort()
    {
        await using var app = SoapApp.Build(["--Listen:Port=0", "--Serilog:MinimumLevel:Default=Fatal"]);

        await app.StartAsync();

        Assert.Null(app.Services.GetRequiredService<DedicatedMetricsListener>().Port);
        await app.StopAsync();
    }

    private sealed class HeldStart(Task gate) : IHostedService
    {
        public Task StartAsync(CancellationToken cancellationToken) => gate.WaitAsync(cancellationToken);

        public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
    }

    private static string BlockingGet(int port, string path)
    {
        using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp)
        {
            ReceiveTimeout = (int)ReadTimeout.TotalMilliseconds,
            SendTimeout = (int)ReadTimeout.TotalMilliseconds,
        };
        socket.Connect(IPAddress.Loopback, port);
        socket.Send(Encoding.ASCII.GetBytes($"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
        using var received = new MemoryStream();
        var buffer = new byte[8192];
        int read;
        while ((read = socket.Receive(buffer)) > 0)
        {
            received.Write(buffer, 0, read);
        }

        return Encoding.UTF8.GetString(received.ToArray());
    }

    private static double ReadSample(string text, string name)
    {
        var line = text.Split('\n').Single(l => l.StartsWith(name + " ", StringComparison.Ordinal));
        return double.Parse(line[(name.Length + 1)..], CultureInfo.InvariantCulture);
    }
}
