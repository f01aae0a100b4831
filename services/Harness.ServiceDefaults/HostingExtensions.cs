using Harness.Scheduling;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace Harness.ServiceDefaults;

/// <summary>Registrations every Harness service shares, in the manner of eShop's ServiceDefaults.</summary>
public static class HostingExtensions
{
    /// <summary>Serilog, the validated <c>Listen</c> endpoint and <c>Http2</c> limits, health checks and the service identity.</summary>
    /// <param name="service">Short name used in logs and metrics: <c>soap</c>, <c>grpc</c>, <c>stub</c>.</param>
    /// <param name="defaultPort">Port used when <c>Listen__Port</c> is not set.</param>
    /// <param name="protocols">
    /// HTTP versions the main endpoint speaks. Kestrel cannot offer HTTP/2 and HTTP/1.1 on one plain-text port
    /// (there is no negotiation without TLS), so gRPC needs <see cref="HttpProtocols.Http2"/> and an admin port.
    /// </param>
    /// <param name="defaultAdminPort">HTTP/1.1 admin port used when <c>Listen__AdminPort</c> is not set; null for none.</param>
    public static WebApplicationBuilder AddHarnessDefaults(
        this WebApplicationBuilder builder,
        string service,
        int defaultPort,
        HttpProtocols protocols = HttpProtocols.Http1,
        int? defaultAdminPort = null)
    {
        builder.AddHarnessLogging(service);

        // The defaults first, so the Listen section's binding (in AddDedicatedMetricsListener) overrides them.
        builder.Services.AddOptions<ListenOptions>()
            .Configure(o =>
            {
                o.Port = defaultPort;
                o.AdminPort = defaultAdminPort;
            });
        builder.Services.AddDedicatedMetricsListener();
        builder.Services.AddSingleton<IValidateOptions<Http2Options>, Http2OptionsValidator>();
        builder.Services.AddOptions<Http2Options>().BindConfiguration(Http2Options.SectionName).ValidateOnStart();
        builder.Services.AddOptions<KestrelServerOptions>()
            .Configure<IOptions<ListenOptions>, IOptions<Http2Options>>((kestrel, listen, http2) =>
            {
                // Kestrel's default of 100 would cap a client that keeps to one connection (grpc-js on one channel,
                // or .NET without EnableMultipleHttp2Connections) at 100 calls in flight, queued on the client side.
                kestrel.Limits.Http2.MaxStreamsPerConnection = http2.Value.MaxStreamsPerConnection;
                var address = listen.Value.ParsedAddress;
                kestrel.Listen(address, listen.Value.Port, endpoint => endpoint.Protocols = protocols);
                if (listen.Value.AdminPort is { } adminPort)
                {
                    kestrel.Listen(address, adminPort, endpoint => endpoint.Protocols = HttpProtocols.Http1);
                }

                // Last, so the addresses' order stays main, admin (GetBoundAddress, tests).
                if (listen.Value.UnixSocket is { } socket)
                {
                    UnixSocketPath.ClearStale(socket);
                    kestrel.ListenUnixSocket(socket, endpoint => endpoint.Protocols = protocols);
                }
            });

        builder.Services.TryAddServiceIdentity(service);
        builder.Services.AddHealthChecks();
        return builder;
    }

    /// <summary>
    /// The validated <c>Listen</c> section and the <see cref="DedicatedMetricsListener"/>, which serves /metrics and
    /// /healthz on its own thread when <c>Listen__MetricsPort</c> is set (on <c>Listen__Address</c>) and does nothing otherwise.
    /// </summary>
    public static IServiceCollection AddDedicatedMetricsListener(this IServiceCollection services)
    {
        services.TryAddEnumerable(ServiceDescriptor.Singleton<IValidateOptions<ListenOptions>, ListenOptionsValidator>());
        services.AddOptions<ListenOptions>().BindConfiguration(ListenOptions.SectionName).ValidateOnStart();
        services.TryAddSingleton<DedicatedMetricsListener>();
        services.AddHostedService(sp => sp.GetRequiredService<DedicatedMetricsListener>());
        return services;
    }

    /// <summary>The scheduling mode's <see cref="IWorkScheduler"/>, from the validated <c>Scheduling</c> section.</summary>
    public static WebApplicationBuilder AddHarnessScheduling(this WebApplicationBuilder builder)
    {
        builder.Services.AddHarnessWorkScheduler();
        return builder;
    }

    /// <summary>
    /// The validated <c>Scheduling</c> section (a bad <c>Scheduling__Mode</c> fails the start, naming the variable and
    /// the valid values) and the mode's <see cref="IWorkScheduler"/>, whose exceptions are logged.
    /// </summary>
    public static IServiceCollection AddHarnessWorkScheduler(this IServiceCollection services)
    {
        services.TryAddEnumerable(ServiceDescriptor.Singleton<IValidateOptions<SchedulingOptions>, SchedulingOptionsValidator>());
        services.AddOptions<SchedulingOptions>()
            .Configure<IConfiguration>(BindScheduling)
            .ValidateOnStart();
        services.TryAddSingleton<IWorkScheduler>(sp =>
        {
            var scheduler = WorkSchedulerFactory.Create(sp.GetRequiredService<IOptions<SchedulingOptions>>().Value);
            var logger = sp.GetRequiredService<ILoggerFactory>().CreateLogger("Harness.Scheduling");
            scheduler.UnhandledException += ex => logger.LogError(ex, "A work item threw; the {Mode} scheduler kept its thread", scheduler.Mode);
            return scheduler;
        });
        return services;
    }

    /// <summary>/healthz, /metrics and the start-up line.</summary>
    public static WebApplication MapHarnessDefaults(this WebApplication app)
    {
        app.MapHealthChecks("/healthz");
        app.MapHarnessMetrics();
        app.Lifetime.ApplicationStarted.Register(() => LogStartup(app));
        return app;
    }

    /// <summary>
    /// The main endpoint's URL, e.g. <c>http://127.0.0.1:5081</c>, once the app has started; Kestrel lists
    /// endpoints in the order they were configured, and the main one comes first.
    /// </summary>
    public static Uri GetBoundAddress(this WebApplication app)
    {
        var addresses = app.Services.GetRequiredService<IServer>().Features.GetRequiredFeature<IServerAddressesFeature>().Addresses;
        return new Uri(addresses.First());
    }

    /// <summary>
    /// Binds the <c>Scheduling</c> section; <see cref="SchedulingModeConverter"/> turns the mode's name into the
    /// enum. The binder reports a name it refuses as a conversion error with a stack trace; report it instead like
    /// every other bad setting, naming the variable and the valid values.
    /// </summary>
    private static void BindScheduling(SchedulingOptions options, IConfiguration configuration)
    {
        try
        {
            configuration.GetSection(SchedulingOptions.SectionName).Bind(options);
        }
        catch (InvalidOperationException ex) when (ex.InnerException is UnknownSchedulingModeException unknown)
        {
            throw new OptionsValidationException(
                Options.DefaultName, typeof(SchedulingOptions), [SchedulingOptionsValidator.UnknownMode(unknown.Value)]);
        }
    }

    /// <summary>The <see cref="ServiceIdentity"/> of /metrics and the start-up line, unless one is registered already.</summary>
    /// <remarks>The mode is the scheduler's own: the one that was bound and built, never a second reading of configuration.</remarks>
    public static IServiceCollection TryAddServiceIdentity(this IServiceCollection services, string service)
    {
        services.TryAddSingleton(sp => new ServiceIdentity(service, sp.GetService<IWorkScheduler>()?.Mode));
        return services;
    }

    private static void LogStartup(WebApplication app)
    {
        var identity = app.Services.GetRequiredService<ServiceIdentity>();
        var scheduling = app.Services.GetService<IOptions<SchedulingOptions>>()?.Value;
        var logger = app.Services.GetRequiredService<ILoggerFactory>().CreateLogger("Harness.Startup");
        logger.LogInformation(
            "{Service} listening on {Addresses}; mode {Mode}, {ProcessorCount} processors, CPU limit {CpuLimit}, {GcMode} GC, iocp concurrency {IocpConcurrency}, custom pool {MinThreads}-{MaxThreads} threads",
            identity.Service,
            string.Join(", ", app.Urls),
            identity.ModeName,
            Environment.ProcessorCount,
            CgroupCpuLimit.Read()?.ToString("0.###", System.Globalization.CultureInfo.InvariantCulture) ?? "none",
            System.Runtime.GCSettings.IsServerGC ? "server" : "workstation",
            scheduling?.EffectiveIocpConcurrency,
            scheduling?.CustomPoolMinThreads,
            scheduling?.CustomPoolMaxThreads);

        // Resolving the scheduler here starts a custom pool's minimum threads before the first request.
        _ = app.Services.GetService<IWorkScheduler>();
    }
}
