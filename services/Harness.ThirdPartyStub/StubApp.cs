using Harness.ServiceDefaults;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace Harness.ThirdPartyStub;

/// <summary>Builds the stub; Program runs it, and tests start it in-process on a free port.</summary>
public static class StubApp
{
    public const int DefaultPort = 5080;

    public static WebApplication Build(string[] args)
    {
        // Services
        var builder = WebApplication.CreateBuilder(args);
        builder.AddHarnessDefaults("stub", DefaultPort, HttpProtocols.Http1);
        builder.Services.AddOptions<StubOptions>()
            .BindConfiguration(StubOptions.SectionName)
            .Validate(
                o => o.MaxDelayMs >= 0 && o.DefaultDelayMs >= 0 && o.DefaultDelayMs <= o.MaxDelayMs,
                "Stub__DefaultDelayMs must be between 0 and Stub__MaxDelayMs, and Stub__MaxDelayMs must be 0 or more.")
            .ValidateOnStart();
        builder.Services.AddSingleton<IMetricsSource, DelayMetrics>();

        // Kestrel's defaults suit public servers; the stub must hold tens of thousands of idle requests.
        builder.WebHost.UseSockets(sockets => sockets.Backlog = 4096);
        builder.WebHost.ConfigureKestrel(kestrel =>
        {
            kestrel.Limits.MaxConcurrentConnections = null;
            kestrel.Limits.MaxConcurrentUpgradedConnections = null;
            kestrel.AddServerHeader = false;
        });

        // Pipeline
        var app = builder.Build();
        app.MapHarnessDefaults();
        app.MapDelay();
        return app;
    }
}
