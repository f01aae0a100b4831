using Harness.Contracts;
using Harness.Rpc.Soap;
using Harness.Scheduling;
using Harness.ServiceDefaults;
using Harness.ServiceOperations;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.Options;

namespace Harness.SoapService;

/// <summary>Builds the SOAP service; Program runs it, and tests start it in-process on a free port.</summary>
public static class SoapApp
{
    public const int DefaultPort = 5081;

    public static WebApplication Build(string[] args)
    {
        // Services
        var builder = WebApplication.CreateBuilder(args);
        builder.AddHarnessDefaults("soap", DefaultPort, HttpProtocols.Http1);
        builder.AddHarnessScheduling();
        builder.AddHarnessOperations();
        builder.Services.AddOptions<SoapQuotaOptions>().BindConfiguration(SoapQuotaOptions.SectionName)
            .Validate(o => o.MaxReceivedMessageSize is >= 1024 and <= 64 * 1024 * 1024,
                "Soap__MaxReceivedMessageSize must be between 1024 and 67108864 bytes.")
            .ValidateOnStart();
        builder.Services.AddSingleton<HarnessSoapService>();
        builder.Services.AddSingleton(sp => WorkSchedulerSynchronizationContext.For(sp.GetRequiredService<IWorkScheduler>()));

        // Pipeline
        var app = builder.Build();
        app.MapHarnessDefaults();
        var service = app.Services.GetRequiredService<HarnessSoapService>();
        var quotas = app.Services.GetRequiredService<IOptions<SoapQuotaOptions>>();
        app.MapSoapEndpoint(HarnessContract.SoapPath, service.CreateContract(), endpoint =>
        {
            endpoint.MaxReceivedMessageSize = quotas.Value.MaxReceivedMessageSize;
            endpoint.SynchronizationContextFactory = DispatchContext;
            endpoint.HttpGetEnabled = true;
        });
        return app;
    }

    /// <summary>
    /// The dispatch runtime's SynchronizationContext, as a CoreWCF service behavior would set it: the mode's
    /// scheduler, or none in threadpool mode so operations stay on the Kestrel thread that received them.
    /// </summary>
    private static SynchronizationContext? DispatchContext(IServiceProvider services)
    {
        var scheduler = services.GetRequiredService<IWorkScheduler>();
        return scheduler.Mode == SchedulingMode.ThreadPool ? null : services.GetRequiredService<WorkSchedulerSynchronizationContext>();
    }
}

/// <summary>The <c>Soap</c> configuration section: the binding's quotas.</summary>
public sealed class SoapQuotaOptions
{
    public const string SectionName = "Soap";

    /// <summary>Largest request accepted, as BasicHttpBinding's MaxReceivedMessageSize (env <c>Soap__MaxReceivedMessageSize</c>).</summary>
    public long MaxReceivedMessageSize { get; set; } = 65_536;
}
