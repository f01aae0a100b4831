using Grpc.AspNetCore.Server;
using Harness.Scheduling.AspNetCore;
using Harness.Scheduling.AspNetCore.BadRequests;
using Harness.ServiceDefaults;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Hosting;

// In the namespace of AddGrpc, so a service adopts the modes with no using of ours.
namespace Microsoft.Extensions.DependencyInjection;

/// <summary>The scheduling modes in an ASP.NET Core gRPC service: <c>AddHarnessScheduling()</c> on the services, <c>AddHarnessScheduling&lt;TService&gt;()</c> on AddGrpc.</summary>
public static class HarnessSchedulingExtensions
{
    /// <summary>
    /// The mode's <see cref="Harness.Scheduling.IWorkScheduler"/> from the <c>Scheduling</c> section (env
    /// <c>Scheduling__Mode</c>: threadpool, iocp or custompool; validated on start, and a bad value stops the
    /// service with a message naming the variable and the valid values), its counters for /metrics
    /// (<c>app.MapHarnessMetrics()</c>), and, when <c>Listen__MetricsPort</c> is set, /metrics and /healthz on a
    /// dedicated thread outside Kestrel and the ThreadPool (on <c>Listen__Address</c>, 127.0.0.1 by default).
    /// </summary>
    /// <param name="services">The app's services.</param>
    /// <param name="serviceName">The <c>service</c> label on /metrics; the application's name when null.</param>
    public static IServiceCollection AddHarnessScheduling(this IServiceCollection services, string? serviceName = null)
    {
        services.AddHarnessWorkScheduler();
        services.TryAddSingleton(sp => new ServiceIdentity(
            serviceName ?? sp.GetRequiredService<IHostEnvironment>().ApplicationName,
            sp.GetRequiredService<Harness.Scheduling.IWorkScheduler>().Mode));
        services.AddDedicatedMetricsListener();
        services.TryAddSingleton<SchedulingInterceptor>();
        return services;
    }

    /// <summary>
    /// Runs the unary calls of <typeparamref name="TService"/> on the mode's scheduler and reports their server time
    /// in the <c>harness-server-time-ms</c> trailer (<see cref="SchedulingInterceptor"/>). Only the services named
    /// this way: grpc.health.v1 and reflection keep answering from Kestrel's thread. Needs <see cref="AddHarnessScheduling(IServiceCollection, string?)"/>.
    /// A request that cannot be read (a message header, compressed data or a body that does not parse, a body the
    /// client stops sending) is answered with <c>INTERNAL</c>, <c>RESOURCE_EXHAUSTED</c> or <c>CANCELLED</c> rather
    /// than with <c>UNKNOWN</c> and an Error log line (the interceptor cannot, as it never sees such a request), and a
    /// header Grpc.AspNetCore repeats in grpc-message is cut there (<see cref="BadRequestAnswers"/>).
    /// </summary>
    public static IGrpcServerBuilder AddHarnessScheduling<TService>(this IGrpcServerBuilder builder)
        where TService : class
    {
        builder.Services.TryAddSingleton<SchedulingInterceptor>();
        builder.AddServiceOptions<TService>(options => options.Interceptors.Add<SchedulingInterceptor>());
        BadRequestAnswers.Add<TService>(builder.Services);
        return builder;
    }
}
