using System.Collections.Concurrent;
using Grpc.Core;
using Grpc.Net.Client;
using Harness.LoadTests.Engine;
using Harness.Metrics;
using OrderService.Grpc;

namespace OrderLoad;

/// <summary>The sample's scenarios: each step is one PlaceOrder call to the series' target (<c>--target</c>).</summary>
public static class OrderScenarios
{
    // One channel per target, shared by every virtual user: a channel multiplexes calls over HTTP/2.
    private static readonly ConcurrentDictionary<Uri, Orders.OrdersClient> Clients = new();

    /// <summary>A small order: the service's usual call.</summary>
    public static Scenario PlaceOrder { get; } = Scenario.Create("place-order", ctx => PlaceAsync(ctx, "A-1", 2));

    /// <summary>The largest order the service accepts.</summary>
    public static Scenario PlaceBulkOrder { get; } = Scenario.Create("place-bulk-order", ctx => PlaceAsync(ctx, "B-7", 1000));

    private static async Task<StepResult> PlaceAsync(ScenarioContext context, string sku, int quantity)
    {
        var target = context.Target ?? throw new InvalidOperationException("give the service with --target grpc=http://host:port");
        var client = Clients.GetOrAdd(target, address => new Orders.OrdersClient(GrpcChannel.ForAddress(address)));
        try
        {
            using var call = client.PlaceOrderAsync(
                new PlaceOrderRequest { Sku = sku, Quantity = quantity }, cancellationToken: context.CancellationToken);
            var reply = await call.ResponseAsync;

            // A service that adopted Harness.Scheduling.AspNetCore says how long it worked on the call; the report
            // shows that beside the time the client saw.
            var serverMs = ServerTimeTrailer.Parse(call.GetTrailers().GetValue(ServerTimeTrailer.Name));
            return reply.TotalCents > 0
                ? StepResult.Ok(serverMs is { } ms ? TimeSpan.FromMilliseconds(ms) : null)
                : StepResult.Fail("NO_TOTAL");
        }
        catch (RpcException ex) when (ex.StatusCode != StatusCode.Cancelled)
        {
            // Counted under the gRPC status, as the harness counts its own calls' failures.
            return StepResult.Fail(ex.StatusCode.ToString().ToUpperInvariant());
        }
    }
}
