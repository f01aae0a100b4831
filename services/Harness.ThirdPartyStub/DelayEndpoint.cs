using Harness.Metrics;
using Harness.ServiceDefaults;
using Harness.Text;
using Microsoft.Extensions.Options;

namespace Harness.ThirdPartyStub;

/// <summary>GET /delay?ms=N: waits on a timer, so ten thousand waiting requests hold no thread between them.</summary>
public static class DelayEndpoint
{
    private static long _waiting;
    private static long _served;

    public static long Waiting => Interlocked.Read(ref _waiting);

    public static long Served => Interlocked.Read(ref _served);

    public static IEndpointConventionBuilder MapDelay(this IEndpointRouteBuilder endpoints) =>
        endpoints.MapGet("/delay", async (HttpContext context, IOptions<StubOptions> options) =>
        {
            var limits = options.Value;
            var query = context.Request.Query["ms"];
            var delayMs = limits.DefaultDelayMs;
            if (query.Count > 0 && (!int.TryParse(query[0], out delayMs) || delayMs < 0 || delayMs > limits.MaxDelayMs))
            {
                return Results.Problem(
                    detail: $"ms must be an integer between 0 and {limits.MaxDelayMs} (Stub__MaxDelayMs); got '{Echo.Bounded(query[0])}'.",
                    statusCode: StatusCodes.Status400BadRequest);
            }

            Interlocked.Increment(ref _waiting);
            try
            {
                await Task.Delay(delayMs, context.RequestAborted);
            }
            catch (OperationCanceledException)
            {
                // The caller gave up; there is nobody to answer.
                return Results.Empty;
            }
            finally
            {
                Interlocked.Decrement(ref _waiting);
            }

            Interlocked.Increment(ref _served);
            return Results.Text("ok");
        });
}

/// <summary>The stub's own samples: requests waiting now and requests answered.</summary>
public sealed class DelayMetrics : IMetricsSource
{
    public void Write(PrometheusWriter writer)
    {
        writer.Gauge(MetricNames.StubWaitingRequests, "Requests waiting for their delay to pass.", DelayEndpoint.Waiting);
        writer.Counter(MetricNames.StubServedTotal, "Requests answered after their delay.", DelayEndpoint.Served);
    }
}
