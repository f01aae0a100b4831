using System.Diagnostics;
using Google.Protobuf;
using Grpc.Health.V1;
using Grpc.Net.Client;
using Harness.Metrics;
using Harness.ServiceDefaults;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using OrderService;
using OrderService.Grpc;

namespace Harness.Services.Tests;

/// <summary>
/// samples/OrderService, a user's own gRPC service that adopted Harness.Scheduling.AspNetCore in three lines, on real
/// Kestrel in each mode: its calls are the mode's scheduler items (threadpool: none, the handler stays where Kestrel
/// dispatched it, as in our gRPC service), grpc.health.v1 never is one, every reply carries the server-time trailer,
/// and a bad Scheduling__Mode stops it naming the variable and the valid values.
/// </summary>
public sealed class OrderServiceSampleTests
{
    private const int Calls = 20;
    private const double CoarseClockTickMs = 4;

    [Theory]
    [InlineData("threadpool", false)]
    [InlineData("iocp", true)]
    [InlineData("custompool", true)]
    public async Task PlaceOrder_RunsOnTheModesScheduler_WithTheServerTimeTrailer_AndHealthChecksAreNoItems(string mode, bool hops)
    {
        // Arrange
        await using var app = Start(mode);
        await app.StartAsync();
        using var channel = GrpcChannel.ForAddress(app.GetBoundAddress());
        var orders = new Orders.OrdersClient(channel);
        var metrics = new Uri($"http://127.0.0.1:{app.Services.GetRequiredService<DedicatedMetricsListener>().Port}/metrics");
        var completed = MetricNames.WithLabel(MetricNames.SchedulerCompletedTotal, MetricNames.ModeLabel, mode);
        Assert.Equal(0, await ReadAsync(metrics, completed));

        // Act: calls one at a time, each timed by the client too.
        var serverTimes = new List<(double Server, double Client)>();
        for (var i = 0; i < Calls; i++)
        {
            var started = Stopwatch.GetTimestamp();
            using var call = orders.PlaceOrderAsync(new PlaceOrderRequest { Sku = "A-1", Quantity = 2 });
            var reply = await call.ResponseAsync;
            var client = Stopwatch.GetElapsedTime(started).TotalMilliseconds;
            Assert.True(reply.TotalCents > 0);
            var trailer = call.GetTrailers().GetValue(ServerTimeTrailer.Name);
            Assert.NotNull(trailer);
            serverTimes.Add((ServerTimeTrailer.Parse(trailer) ?? throw new InvalidOperationException($"trailer '{trailer}' is no number"), client));
        }

        // The scheduler counts an item once its callback returns, which may be just after the reply went out.
        var afterCalls = await SettledAsync(metrics, completed);
        for (var i = 0; i < 10; i++)
        {
            var health = await new Health.HealthClient(channel).CheckAsync(new HealthCheckRequest(), deadline: DateTime.UtcNow.AddSeconds(10));
            Assert.Equal(HealthCheckResponse.Types.ServingStatus.Serving, health.Status);
        }

        var afterChecks = await SettledAsync(metrics, completed);

        // Assert: each call is at least one item (its start; its continuation after the delay is another) in the modes that hop.
        if (hops)
        {
            Assert.True(afterCalls >= Calls, $"{afterCalls} scheduler items for {Calls} calls");
        }
        else
        {
            Assert.Equal(0, afterCalls);
        }

        Assert.Equal(afterCalls, afterChecks);
        Assert.All(serverTimes, t =>
        {
            // The handler awaits the stock check, so its time includes it; the client's includes the server's.
            // .NET timers read Linux's coarse clock, which ticks every 4 ms, so a delay may end up to one tick early.
            Assert.True(t.Server >= OrdersService.StockCheck.TotalMilliseconds - CoarseClockTickMs, $"server time {t.Server} ms below the stock check");
            Assert.True(t.Server <= t.Client, $"server time {t.Server} ms above the client's {t.Client} ms");
        });
    }

    [Fact]
    public async Task ABodyThatIsNotTheRequest_IsInternal_AndNoErrorIsLogged()
    {
        // Arrange: Grpc.AspNetCore parses the request before the package's interceptor, so the package binds the
        // service's methods itself to answer this; the mode plays no part (GrpcProtocolEdgeTests checks each).
        await using var app = Start("iocp");
        var logs = new CapturingLoggerProvider();
        app.Services.GetRequiredService<ILoggerFactory>().AddProvider(logs);
        await app.StartAsync();
        using var wire = new GrpcWire(app.GetBoundAddress());

        // Act
        var response = await wire.SendAsync("/orders.v1.Orders/PlaceOrder", [0, 0, 0, 0, 3, 0xFF, 0xFF, 0xFF]);
        var next = await wire.SendAsync("/orders.v1.Orders/PlaceOrder", GrpcWire.Frame(new PlaceOrderRequest { Sku = "A-1", Quantity = 1 }.ToByteArray()));

        // Assert
        Assert.Equal("13", response.GrpcStatus);
        Assert.Equal("The request to /orders.v1.Orders/PlaceOrder is not a valid PlaceOrderRequest message.", response.GrpcMessage);
        Assert.Equal("0", next.GrpcStatus);
        Assert.DoesNotContain(logs.Entries, entry => entry.Level >= LogLevel.Error);
    }

    [Fact]
    public async Task ABadMode_StopsTheStart_NamingTheVariableAndTheValidValues()
    {
        await using var app = Start("fast");

        var refused = await Assert.ThrowsAsync<OptionsValidationException>(() => app.StartAsync());

        Assert.Contains("Scheduling__Mode 'fast' is not a scheduling mode; valid values: threadpool, iocp, custompool", refused.Message, StringComparison.Ordinal);
    }

    /// <summary>The sample as its launch profile configures it (HTTP/2, a dedicated metrics port), on free ports.</summary>
    private static Microsoft.AspNetCore.Builder.WebApplication Start(string mode) => OrderServiceApp.Build(
    [
        "--urls=http://127.0.0.1:0",
        "--Kestrel:EndpointDefaults:Protocols=Http2",
        "--Listen:MetricsPort=0",
        $"--Scheduling:Mode={mode}",
        "--Logging:LogLevel:Default=Warning",
    ]);

    private static async Task<double> SettledAsync(Uri metrics, string sample)
    {
        var last = await ReadAsync(metrics, sample);
        while (true)
        {
            await Task.Delay(100);
            var now = await ReadAsync(metrics, sample);
            if (now == last)
            {
                return now;
            }

            last = now;
        }
    }

    private static async Task<double> ReadAsync(Uri metrics, string sample)
    {
        using var http = new HttpClient();
        return Metrics.Sample(await http.GetStringAsync(metrics), sample);
    }
}
