using Harness.Metrics;
using Harness.Scheduling;
using Harness.ServiceDefaults;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;

// In ASP.NET's own namespace, as MapGrpcService is, so a service that adopts the scheduling modes
// (Harness.Scheduling.AspNetCore) maps /metrics with no using of ours.
namespace Microsoft.AspNetCore.Builder;

/// <summary>GET /metrics on the app's own endpoints (Kestrel), rendered by <see cref="MetricsEndpoint"/>.</summary>
public static class MetricsEndpointRouteBuilderExtensions
{
    public static IEndpointConventionBuilder MapHarnessMetrics(this IEndpointRouteBuilder endpoints, string path = "/metrics") =>
        endpoints.MapGet(path, (HttpContext context) =>
        {
            var services = context.RequestServices;
            var text = MetricsEndpoint.Render(
                services.GetRequiredService<ServiceIdentity>(),
                services.GetService<IWorkScheduler>(),
                services.GetServices<IMetricsSource>());
            return Results.Text(text, PrometheusWriter.ContentType);
        });
}
