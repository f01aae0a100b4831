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
internal sealed class LiveServer : IRunSink
{
    /// <summary>How long a request for the next second waits before answering with nothing new.</summary>
    private static readonly TimeSpan LongPoll = TimeSpan.FromSeconds(5);

    private static readonly JsonSerializerOptions Json = new() { PropertyNamingPolicy = JsonNamingPolicy.CamelCase };

    private readonly WebApplication _app;
    private readonly LiveFeed _feed;

    private LiveServer(WebApplication app, LiveFeed feed, Uri address)
    {
        _app = app;
        _feed = feed;
        Address = address;
    }

    public Uri Address { get; }

    /// <summary>The page needs the seconds only.</summary>
    public IRunFollower? Follower => null;

    public IEnumerable<string> Describe() => [$"live: {Address}"];

    /// <summary>A second of the current series, as the progress line printed it: the page's next point.</summary>
    public void SecondPassed(ProgressSecond second) => _feed.Add(second);

    /// <summary>Starts listening; the run hands it its seconds (<see cref="SecondPassed"/>).</summary>
    public static async Task<LiveServer> StartAsync(string title, CancellationToken cancellationToken)
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
        return new LiveServer(app, feed, new Uri(string.Create(CultureInfo.InvariantCulture, $"http://127.0.0.1:{port}/")));
    }

    public async ValueTask DisposeAsync()
    {
        _feed.End();
        await _app.StopAsync(CancellationToken.None);
        await _app.DisposeAsync();
    }
}
