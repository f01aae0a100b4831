using System.Buffers.Binary;
using Google.Protobuf;
using Harness.Contracts;
using Harness.Contracts.Grpc;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Connections.Features;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.Logging;

namespace Harness.LoadTests.Clients.Tests.Http2;

/// <summary>
/// A Kestrel HTTP/2 endpoint of the harness's Compute that answers by the request's iterations, at the gRPC wire level,
/// so that both gRPC clients meet the very same frames: a reply, a status, an HTTP error, a reset stream, a dropped
/// connection, or a slow reply.
/// </summary>
internal sealed class GrpcTestServer : IAsyncDisposable
{
    public const int Ok = 1, InvalidArgument = 2, Http503 = 3, Http404 = 4, RefusedStream = 5, CancelStream = 6,
        InternalErrorStream = 7, DropConnection = 8, Hang = 9, Slow = 10;

    private readonly WebApplication _server;

    private GrpcTestServer(WebApplication server, Uri address)
    {
        _server = server;
        Address = address;
    }

    public Uri Address { get; }

    /// <param name="port">0 for any free port.</param>
    public static async Task<GrpcTestServer> StartAsync(int port = 0, int maxStreamsPerConnection = 100, string? unixSocket = null)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        builder.WebHost.ConfigureKestrel(kestrel =>
        {
            kestrel.Limits.Http2.MaxStreamsPerConnection = maxStreamsPerConnection;
            if (unixSocket is not null)
            {
                kestrel.ListenUnixSocket(unixSocket, l => l.Protocols = HttpProtocols.Http2);
            }
            else
            {
                kestrel.Listen(System.Net.IPAddress.Loopback, port, l => l.Protocols = HttpProtocols.Http2);
            }
        });
        var server = builder.Build();
        server.MapPost($"/{HarnessContract.GrpcService}/{HarnessContract.Compute}", AnswerAsync);
        await server.StartAsync();
        var address = unixSocket is not null ? new Uri($"unix://{unixSocket}") : new Uri(server.Urls.First());
        return new GrpcTestServer(server, address);
    }

    public async Task StopAsync() => await _server.StopAsync();

    public async ValueTask DisposeAsync() => await _server.DisposeAsync();

    private static async Task AnswerAsync(HttpContext context)
    {
        using var body = new MemoryStream();
        await context.Request.Body.CopyToAsync(body);
        var iterations = ComputeRequest.Parser.ParseFrom(body.ToArray().AsSpan(5)).Iterations;
        context.Response.ContentType = "application/grpc";
        switch (iterations)
        {
            case InvalidArgument:
                // Trailers-only, the message percent-encoded as gRPC requires.
                context.Response.Headers["grpc-status"] = "3";
                context.Response.Headers["grpc-message"] = "iterations 100%25 wrong";
                return;
            case Http503:
            case Http404:
                context.Response.StatusCode = iterations == Http503 ? 503 : 404;
                context.Response.ContentType = "text/plain";
                await context.Response.WriteAsync("no");
                return;
            case RefusedStream:
            case CancelStream:
            case InternalErrorStream:
                context.Features.Get<IHttpResetFeature>()!.Reset(iterations == RefusedStream ? 0x7 : iterations == CancelStream ? 0x8 : 0x2);
                return;
            case DropConnection:
                await context.Response.Body.FlushAsync();
                context.Features.Get<IConnectionLifetimeFeature>()!.Abort();
                return;
            case Hang:
                await Task.Delay(Timeout.Infinite, context.RequestAborted).ContinueWith(_ => { }, TaskScheduler.Default);
                return;
            case Slow:
                await Task.Delay(200);
                break;
        }

        var reply = new ComputeReply { Result = 89, ThreadId = 6, ElapsedMs = 1.5 }.ToByteArray();
        var framed = new byte[5 + reply.Length];
        BinaryPrimitives.WriteUInt32BigEndian(framed.AsSpan(1), (uint)reply.Length);
        reply.CopyTo(framed, 5);
        await context.Response.Body.WriteAsync(framed);
        context.Response.AppendTrailer("grpc-status", "0");
    }
}
