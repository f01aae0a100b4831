using System.Globalization;
using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace Harness.LoadTests.Distributed.Coordination;

/// <summary>
/// <see cref="CoordinatorState"/> over HTTP (Kestrel): the routes of <see cref="CoordinatorRoutes"/>, and the uploads
/// unpacked into <c>agents/agent-I-of-N/</c> under the run's folder as they arrive, so each is on disk before the
/// coordinator answers it.
/// </summary>
internal sealed class CoordinatorServer : IAsyncDisposable
{
    /// <summary>How long a meeting request waits before answering "not yet": short enough for any proxy or load balancer.</summary>
    private static readonly TimeSpan LongPoll = TimeSpan.FromSeconds(20);

    /// <summary>A multi-hour soak's raw files run to tens of megabytes; Kestrel's default body limit is 30 MB.</summary>
    private const long MaxUploadBytes = 4L * 1024 * 1024 * 1024;

    private readonly WebApplication _app;

    private CoordinatorServer(WebApplication app, Uri address)
    {
        _app = app;
        Address = address;
    }

    public Uri Address { get; }

    /// <param name="agentsFolder">Where uploads are unpacked: one <c>agent-I-of-N</c> folder each.</param>
    /// <param name="onUpload">Told of each upload once it is on disk (index, exit code, folder).</param>
    public static async Task<CoordinatorServer> StartAsync(
        CoordinatorState coordination, IPEndPoint endpoint, string agentsFolder, Action<int, int, string> onUpload, CancellationToken cancellationToken)
    {
        var builder = WebApplication.CreateSlimBuilder(new WebApplicationOptions { Args = [] });
        builder.Logging.ClearProviders();
        builder.WebHost.UseKestrel(kestrel =>
        {
            kestrel.Listen(endpoint, listen => listen.Protocols = HttpProtocols.Http1);
            kestrel.Limits.MaxRequestBodySize = MaxUploadBytes;
        });
        var app = builder.Build();
        Map(app, coordination, agentsFolder, onUpload);
        await app.StartAsync(cancellationToken);

        var bound = new Uri(app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First());
        var host = endpoint.Address.Equals(IPAddress.Any) || endpoint.Address.Equals(IPAddress.IPv6Any) ? "127.0.0.1" : bound.Host;
        return new CoordinatorServer(app, new Uri(string.Create(CultureInfo.InvariantCulture, $"http://{host}:{bound.Port}/")));
    }

    public async ValueTask DisposeAsync()
    {
        await _app.StopAsync(CancellationToken.None);
        await _app.DisposeAsync();
    }

    private static void Map(WebApplication app, CoordinatorState coordination, string agentsFolder, Action<int, int, string> onUpload)
    {
        app.MapGet(CoordinatorRoutes.Health, () => Results.Text("ok\n"));
        app.MapGet(CoordinatorRoutes.Clock, () => Results.Json(new ClockAnswer(coordination.Now.UtcTicks), CoordinatorRoutes.Json));
        app.MapPost(CoordinatorRoutes.Register, (RegisterRequest request) => Refusable(() => Results.Json(coordination.Register(request), CoordinatorRoutes.Json)));
        app.MapPost(CoordinatorRoutes.Meet, async (MeetRequest request, HttpContext context) =>
        {
            try
            {
                var start = await coordination.MeetAsync(request, LongPoll, context.RequestAborted);
                return Results.Json(new MeetAnswer(start?.UtcTicks), CoordinatorRoutes.Json);
            }
            catch (CoordinationRefusedException ex)
            {
                return Refused(ex);
            }
        });
        app.MapPost(CoordinatorRoutes.Started, (StartedRequest request) => Refusable(() =>
        {
            coordination.Started(request);
            return Results.NoContent();
        }));
        app.MapPost(CoordinatorRoutes.Heartbeat, (HeartbeatRequest request) => Refusable(() =>
        {
            coordination.Heartbeat(request.Index);
            return Results.NoContent();
        }));
        app.MapPost(CoordinatorRoutes.Leave, (LeaveRequest request) => Refusable(() =>
        {
            coordination.Left(request.Index, request.ExitCode, request.Reason);
            return Results.NoContent();
        }));
        app.MapPut("/v1/runs/{index:int}", async (int index, HttpContext context) =>
        {
            if (!int.TryParse(context.Request.Headers[CoordinatorRoutes.ExitCodeHeader], NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var exitCode))
            {
                return Results.BadRequest(new ErrorAnswer($"an upload needs its agent's exit code in the {CoordinatorRoutes.ExitCodeHeader} header."));
            }

            try
            {
                coordination.Uploading(index);
                var folder = Path.Combine(agentsFolder, AgentSettings.Name(index, coordination.Count));
                if (Directory.Exists(folder))
                {
                    // A retried upload replaces a half-written one.
                    Directory.Delete(folder, recursive: true);
                }

                await RunArchive.UnpackAsync(context.Request.Body, folder, context.RequestAborted);
                coordination.Uploaded(index, exitCode);
                onUpload(index, exitCode, folder);
                return Results.NoContent();
            }
            catch (CoordinationRefusedException ex)
            {
                return Refused(ex);
            }
            catch (InvalidDataException ex)
            {
                return Results.BadRequest(new ErrorAnswer($"agent {index}'s upload is not a run folder: {ex.Message}"));
            }
        });
    }

    private static IResult Refusable(Func<IResult> answer)
    {
        try
        {
            return answer();
        }
        catch (CoordinationRefusedException ex)
        {
            return Refused(ex);
        }
    }

    private static IResult Refused(CoordinationRefusedException ex) => Results.Json(new ErrorAnswer(ex.Message), CoordinatorRoutes.Json, statusCode: StatusCodes.Status409Conflict);
}
