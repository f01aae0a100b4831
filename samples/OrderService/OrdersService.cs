using Grpc.Core;
using OrderService.Grpc;

namespace OrderService;

/// <summary>Places an order: a little CPU work (pricing) and an awaited delay (the stock service, say).</summary>
public sealed class OrdersService : Orders.OrdersBase
{
    /// <summary>How long the pretend stock check takes.</summary>
    public static readonly TimeSpan StockCheck = TimeSpan.FromMilliseconds(5);

    public override async Task<PlaceOrderReply> PlaceOrder(PlaceOrderRequest request, ServerCallContext context)
    {
        if (string.IsNullOrEmpty(request.Sku) || request.Quantity is < 1 or > 1000)
        {
            throw new RpcException(new Status(StatusCode.InvalidArgument, "sku must be set and quantity between 1 and 1000."));
        }

        var total = Price(request.Sku, request.Quantity);
        await Task.Delay(StockCheck, context.CancellationToken);
        return new PlaceOrderReply { OrderId = Guid.NewGuid().ToString("N"), TotalCents = total };
    }

    // A few thousand multiply-adds of CPU, standing in for a pricing rule.
    private static long Price(string sku, int quantity)
    {
        long hash = 17;
        for (var i = 0; i < 20_000; i++)
        {
            hash = unchecked((hash * 31) + sku[i % sku.Length]);
        }

        return (Math.Abs(hash % 10_000) + 100) * quantity;
    }
}
