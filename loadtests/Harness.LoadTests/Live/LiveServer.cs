using System.Globalization;
using System.Net;
using System.Text.Json;
using Harness.LoadTests.Running;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace Harness.LoadTests.Live;

/// <summary>
/// <c>--live</c>: a page on 127.0.0.1 (a free port) charting the current series as the progress line sees it.
/// <c>/</c> is the page (<see cref="LivePage"/>), <c>/data?series=I&amp;received=N</c> the seconds it lacks
/// (<see cref="LiveFeed.NextAsync"/>). Disposing ends the feed, so the page says the run is over, and stops the listener.
/// </summary>
internal sealed class LiveServer : IAsyncDisposable
{
    /// <summary>How long a request for the next second waits before answering with nothing new.</summary>
    private static readonly TimeSpan LongPoll = TimeSpan.FromSeconds(5);

    private static readonly JsonSerializerOptions Json = new() { PropertyNamingPolicy = JsonNamingPolicy.CamelCase };

    private readonly WebApplication _app;
    private readonly LiveFeed _feed;
    private readonly ProgressPrinter _progress;

    private LiveServer(WebApplication app, LiveFeed feed, ProgressPrinter progress, Uri address)
    {
        _app = app;
        _feed = feed;
        _progress = progress;
        Address = address;
    }

    public Uri Address { get; }

    /// <summary>Starts listening and follows <paramref name="progress"/>'s seconds.</summary>
    public static async Task<LiveServer> StartAsync(ProgressPrinter progress, string title, CancellationToken cancellationToken)
    {
        var feed = new LiveFeed();
        var builder = WebApplication.CreateSlimBuilder(new WebApplicationOptions { Args = [] });
        builder.Logging.ClearProviders();
        builder.WebHost.UseKestrel(kestrel => kestrel.Listen(IPAddress.Loopback, 0));
        var app = builder.Build();
        var page = LivePage.Render(title);
        app.MapGet("/", () => Results.Content(page, "text/html; charset=utf-8"));
        app.MapGet("/data", async (HttpContext context, int? series, int? received) =>
        {
            var update = await feed.NextAsync(series ?? -1, received ?? 0, LongPoll, context.RequestAborted);
            context.Response.Headers.CacheControl = "no-store";
            return Results.Text(JsonSerializer.Serialize(update, Json), "application/json");
        });
        await app.StartAsync(cancellationToken);

        var bound = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First();
        var port = new Uri(bound).Port;
        var server = new LiveServer(app, feed, progress, new Uri(string.Create(CultureInfo.InvariantCulture, $"http://127.0.0.1:{port}/")));
        progress.SecondPassed += feed.Add;
        return server;
    }

    public async ValueTask DisposeAsync()
    {
        _progress.SecondPassed -= _feed.Add;
        _feed.End();
        await _app.StopAsync(CancellationToken.None);
        await _app.DisposeAsync();
    }
}
