using Harness.Contracts;
using Harness.Contracts.Grpc;
using Harness.Rpc.Grpc;
using Harness.Scheduling;
using Harness.ServiceDefaults;
using Microsoft.AspNetCore.Server.Kestrel.Core;

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
        builder.AddHarnessWorkloads();
        builder.Services.AddGrpcWire();
        builder.Services.AddSingleton<HarnessGrpcService>();
        builder.Services.AddSingleton<IServerInterceptor, StatusMappingInterceptor>();
        builder.Services.AddSingleton<IServerInterceptor>(sp =>
        {
            // Outermost-first: status mapping wraps the hop, so exceptions thrown on the scheduler are mapped too.
            var scheduler = sp.GetRequiredService<IWorkScheduler>();
            return scheduler.Mode == SchedulingMode.ThreadPool ? new PassThroughInterceptor() : new SchedulingInterceptor(scheduler);
        });

        // Pipeline
        var app = builder.Build();
        app.MapHarnessDefaults();
        app.MapGrpcHealth();
        var service = app.Services.GetRequiredService<HarnessGrpcService>();
        app.MapGrpcUnary<ComputeRequest, ComputeReply>(HarnessContract.GrpcService, HarnessContract.Compute, service.Compute);
        app.MapGrpcUnary<CallThirdPartyRequest, CallThirdPartyReply>(HarnessContract.GrpcService, HarnessContract.CallThirdParty, service.CallThirdParty);
        return app;
    }

    /// <summary>The ThreadPool mode's hook: the handler stays on the thread Kestrel gave it.</summary>
    private sealed class PassThroughInterceptor : IServerInterceptor
    {
        public Task<TResponse> UnaryServerHandler<TRequest, TResponse>(
            TRequest request, ServerCallContext context, UnaryServerMethod<TRequest, TResponse> continuation)
            where TRequest : class
            where TResponse : class => continuation(request, context);
    }
}
