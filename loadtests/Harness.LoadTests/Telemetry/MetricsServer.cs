using System.Globalization;
using Harness.LoadTests.Common;
using Harness.Metrics;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;

namespace Harness.LoadTests.Telemetry;

/// <summary>
/// <c>--metrics-port</c>: GET <c>/metrics</c> in Prometheus text on every interface (a Prometheus elsewhere in the
/// cluster scrapes the pod's address), rendered afresh for each scrape. Kestrel, on the runner's ThreadPool, whose
/// minimum the runner raises (<see cref="Running.RunnerRuntime"/>) and whose requests do not block, so a scrape waits
/// for no load; the services' own listener needs a thread of its own because their workload does block.
/// </summary>
internal sealed class MetricsServer : IAsyncDisposable
{
    private readonly WebApplication _app;

    private MetricsServer(WebApplication app, int port)
    {
        _app = app;
        Port = port;
    }

    public int Port { get; }

    /// <summary>What to tell the user: the page's address on this machine.</summary>
    public string Address => string.Create(CultureInfo.InvariantCulture, $"http://0.0.0.0:{Port}/metrics");

    /// <exception cref="MetricsPortException">The port cannot be listened on (taken, or privileged).</exception>
    public static async Task<MetricsServer> StartAsync(int port, Func<string> render, CancellationToken cancellationToken)
    {
        var builder = WebApplication.CreateSlimBuilder(new WebApplicationOptions { Args = [] });
        builder.Logging.ClearProviders();
        builder.WebHost.UseKestrel(kestrel => kestrel.ListenAnyIP(port));
        var app = builder.Build();
        app.MapGet("/metrics", () => Results.Text(render(), PrometheusWriter.ContentType));
        try
        {
            await app.StartAsync(cancellationToken);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or InvalidOperationException)
        {
            await app.DisposeAsync();
            throw new MetricsPortException(string.Create(CultureInfo.InvariantCulture,
                $"--metrics-port {port}: cannot listen on it ({ex.Message}); give a port no other process holds, e.g. 9464."));
        }

        return new MetricsServer(app, port);
    }

    public async ValueTask DisposeAsync()
    {
        await _app.StopAsync(CancellationToken.None);
        await _app.DisposeAsync();
    }
}

/// <summary>The metrics port cannot be listened on: said in one line, exit code 2, before any load.</summary>
internal sealed class MetricsPortException(string message) : UsageException(message);
