using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace OrderService;

/// <summary>Builds the service; Program runs it, and the tests start it in-process on a free port.</summary>
public static class OrderServiceApp
{
    public static WebApplication Build(string[] args)
    {
        var builder = WebApplication.CreateBuilder(args);
        builder.Services.AddHarnessScheduling();                                    // 1: the mode (Scheduling__Mode), its scheduler, its counters
        builder.Services.AddGrpc().AddHarnessScheduling<OrdersService>();           // 2: Orders' calls on the mode's scheduler, with the server-time trailer
        builder.Services.AddGrpcReflection();
        builder.Services.AddGrpcHealthChecks(o => o.UseHealthChecksCache = false)
            .AddCheck("self", () => HealthCheckResult.Healthy());

        var app = builder.Build();
        app.MapGrpcService<OrdersService>();
        app.MapGrpcHealthChecksService();
        app.MapGrpcReflectionService();
        app.MapHarnessMetrics();                                                    // 3: /metrics (and Listen__MetricsPort: a dedicated listener)
        return app;
    }
}
