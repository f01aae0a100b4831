using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace Harness.Rpc.Grpc.Tests;

/// <summary>A real Kestrel server on 127.0.0.1 and an ephemeral port.</summary>
internal sealed class TestServer : IAsyncDisposable
{
    private readonly WebApplication _app;

    private TestServer(WebApplication app, IReadOnlyList<Uri> addresses)
    {
        _app = app;
        Addresses = addresses;
    }

    /// <summary>The first endpoint's address.</summary>
    public Uri Address => Addresses[0];

    /// <summary>One address per endpoint, in the order the endpoints' protocols were given.</summary>
    public IReadOnlyList<Uri> Addresses { get; }

    public IServiceProvider Services => _app.Services;

    public static Task<TestServer> StartAsync(HttpProtocols protocols, Action<IServiceCollection> configureServices, Action<WebApplication> mapEndpoints) =>
        StartAsync([protocols], configureServices, mapEndpoints);

    /// <summary>Starts a server with one endpoint per entry of <paramref name="endpointProtocols"/>.</summary>
    public static async Task<TestServer> StartAsync(HttpProtocols[] endpointProtocols, Action<IServiceCollection> configureServices, Action<WebApplication> mapEndpoints)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        var listenOptions = new ListenOptions[endpointProtocols.Length];
        builder.WebHost.ConfigureKestrel(kestrel =>
        {
            for (var i = 0; i < endpointProtocols.Length; i++)
            {
                var index = i;
                kestrel.Listen(IPAddress.Loopback, 0, listen =>
                {
                    listen.Protocols = endpointProtocols[index];
                    listenOptions[index] = listen;
                });
            }
        });
        configureServices(builder.Services);

        var app = builder.Build();
        try
        {
            mapEndpoints(app);
            await app.StartAsync();
        }
        catch
        {
            await app.DisposeAsync();
            throw;
        }

        // Kestrel replaces each endpoint's port 0 with the port it bound.
        var addresses = listenOptions.Select(listen => new Uri($"http://{listen.IPEndPoint}")).ToArray();
        return new TestServer(app, addresses);
    }

    public async ValueTask DisposeAsync()
    {
        await _app.StopAsync();
        await _app.DisposeAsync();
    }
}
