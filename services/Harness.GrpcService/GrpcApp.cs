using Grpc.AspNetCore.Server;
using Harness.Contracts;
using Harness.ServiceDefaults;
using Harness.ServiceOperations;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Options;

namespace Harness.GrpcService;

/// <summary>Builds the gRPC service; Program runs it, and tests start it in-process on a free port.</summary>
public static class GrpcApp
{
    public const int DefaultPort = 5082;

    /// <summary>HTTP/1.1 port for /healthz and /metrics, since the gRPC port speaks only HTTP/2.</summary>
    public const int DefaultAdminPort = 5083;

    public static WebApplication Build(string[] args)
    {
        // Services
        var builder = WebApplication.CreateBuilder(args);
        builder.AddHarnessDefaults("grpc", DefaultPort, HttpProtocols.Http2, DefaultAdminPort);
        builder.AddHarnessScheduling();
        builder.AddHarnessOperations();
        builder.AddHarnessGrpc();

        // Pipeline
        var app = builder.Build();
        app.MapHarnessDefaults();
        app.MapGrpcService<HarnessGrpcService>();
        app.MapGrpcHealthChecksService();

        // grpc.reflection.v1 and v1alpha: any gRPC tool, and `harness run --call`, can then call the service by name.
        app.MapGrpcReflectionService();
        return app;
    }

    /// <summary>Grpc.AspNetCore with the validated <c>Grpc</c> quotas, the mode's interceptor (with the server-time trailer) on the harness service and grpc.health.v1.</summary>
    public static WebApplicationBuilder AddHarnessGrpc(this WebApplicationBuilder builder)
    {
        builder.Services.AddOptions<GrpcQuotaOptions>()
            .BindConfiguration(GrpcQuotaOptions.SectionName)
            .Validate(o => o.MaxReceiveMessageSize is >= GrpcQuotaOptions.MinSize and <= GrpcQuotaOptions.MaxSize, GrpcQuotaOptions.RangeMessage)
            .ValidateOnStart();

        // The mode's scheduler and the server-time trailer for the harness service alone, never a global interceptor
        // (SchedulingInterceptor says why). Workload exceptions become statuses in HarnessGrpcService itself
        // (GrpcStatusMapping), inside the hop.
        builder.Services.AddGrpc().AddHarnessScheduling<HarnessGrpcService>();
        builder.Services.AddGrpcReflection();
        builder.Services.AddOptions<GrpcServiceOptions>()
            .Configure<IOptions<GrpcQuotaOptions>>((grpc, quotas) => grpc.MaxReceiveMessageSize = quotas.Value.MaxReceiveMessageSize);

        // grpc.health.v1 reports the same ASP.NET health checks as /healthz.
        // Answer each Check from a fresh run of the checks: the default cache is filled by a publisher that
        // first runs 5 s after start, and until then reports UNKNOWN, which would fail a readiness probe.
        // The empty name is the whole server, as probes ask by default; the service's own name is answered too.
        builder.Services.AddGrpcHealthChecks(o =>
            {
                o.UseHealthChecksCache = false;
                o.Services.Map("", _ => true);
                o.Services.Map(HarnessContract.GrpcService, _ => true);
            })
            .AddCheck("self", () => HealthCheckResult.Healthy());
        return builder;
    }
}

/// <summary>The <c>Grpc</c> configuration section: the server's message quota.</summary>
public sealed class GrpcQuotaOptions
{
    public const string SectionName = "Grpc";

    public const int MinSize = 1024;

    public const int MaxSize = 64 * 1024 * 1024;

    public const string RangeMessage = "Grpc__MaxReceiveMessageSize must be between 1024 and 67108864 bytes.";

    /// <summary>Largest request message accepted; larger ones get RESOURCE_EXHAUSTED (env <c>Grpc__MaxReceiveMessageSize</c>).</summary>
    public int MaxReceiveMessageSize { get; set; } = 4 * 1024 * 1024;
}
