using Harness.ServiceDefaults;
using OrderService;

namespace Harness.LoadTests.Tests.Calls;

/// <summary>
/// <c>harness run --call</c> against samples/OrderService, a user's own gRPC service that adopted
/// Harness.Scheduling.AspNetCore: its series carries the server time its interceptor reports in the
/// harness-server-time-ms trailer, so the report can tell queue-and-transport time from it, as for ours.
/// </summary>
[Trait("Category", "EndToEnd")]
public sealed class OrderServiceCallTests
{
    [Fact]
    public async Task PlaceOrder_InIocpMode_RecordsTheServersTime()
    {
        await using var app = OrderServiceApp.Build(
        [
            "--urls=http://127.0.0.1:0",
            "--Kestrel:EndpointDefaults:Protocols=Http2",
            "--Scheduling:Mode=iocp",
            "--Logging:LogLevel:Default=Warning",
        ]);
        await app.StartAsync();

        var run = await CallRuns.RunAsync(
        [
            "--target", $"grpc={app.GetBoundAddress().ToString().TrimEnd('/')},mode=iocp",
            "--call", "orders.v1.Orders/PlaceOrder", "--data", """{"sku":"A-{{seq}}","quantity":2}""", .. CallRuns.Short,
        ]);
        await app.StopAsync();

        Assert.True(run.ExitCode == 0, run.Output);
        CallRuns.AssertServedWithoutErrors(run, run.Series!.Id);
        CallRuns.AssertServerTimeRecorded(run);
    }
}
