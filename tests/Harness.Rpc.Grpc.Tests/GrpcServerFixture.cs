using System.Collections.Concurrent;
using Google.Protobuf;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;

namespace Harness.Rpc.Grpc.Tests;

/// <summary>
/// One HTTP/2-only server with the test service <c>harness.test.Echo</c>, three interceptors, the health
/// service and a plain endpoint, shared by <see cref="GrpcWireTests"/>.
/// </summary>
public sealed class GrpcServerFixture : IAsyncLifetime
{
    public const string Service = "harness.test.Echo";
    public const string HopMethod = "/harness.test.Echo/Hop";
    public const string HopThreadName = "grpc-test-hop";
    public const int ServerMaxReceiveMessageSize = 64 * 1024;

    private TestServer? _server;

    /// <summary>What interceptors and handlers did, per call id (the request's message).</summary>
    public ConcurrentDictionary<string, ConcurrentQueue<string>> Events { get; } = new();

    /// <summary>Completed when the Wait handler for a call id sees its cancellation token fire.</summary>
    public ConcurrentDictionary<string, TaskCompletionSource> WaitCanceled { get; } = new();

    public Uri Address => _server!.Address;

    public IServiceProvider Services => _server!.Services;

    /// <summary>A client for raw HTTP/2 requests (cleartext, prior knowledge), to send what a gRPC client would not.</summary>
    /// <remarks>Requests must set HTTP/2 themselves: the client's default version applies only to its helper methods.</remarks>
    public HttpClient RawClient { get; } = new(new SocketsHttpHandler());

    public GrpcUnaryClient Client { get; private set; } = null!;

    public async Task InitializeAsync()
    {
        _server = await TestServer.StartAsync(
            HttpProtocols.Http2,
            services =>
            {
                services.AddGrpcWire(options => options.MaxReceiveMessageSize = ServerMaxReceiveMessageSize);
                services.AddSingleton<IServerInterceptor>(new RecordingInterceptor("outer", this));
                services.AddSingleton<IServerInterceptor>(new RecordingInterceptor("inner", this));
                services.AddSingleton<IServerInterceptor>(new ThreadHopInterceptor(this));
            },
            MapEndpoints);
        Client = new GrpcUnaryClient(Address);
    }

    public async Task DisposeAsync()
    {
        Client.Dispose();
        RawClient.Dispose();
        if (_server is not null)
        {
            await _server.DisposeAsync();
        }
    }

    public void Record(string callId, string what) => Events.GetOrAdd(callId, _ => new ConcurrentQueue<string>()).Enqueue(what);

    private void MapEndpoints(WebApplication app)
    {
        app.MapGrpcUnary<EchoRequest, EchoReply>(Service, "Echo", static (request, context) => Task.FromResult(new EchoReply
        {
            Message = request.Message,
            Payload = ByteString.CopyFrom(new byte[request.ReplyPayloadSize]),
        }));

        app.MapGrpcUnary<EchoRequest, EchoReply>(Service, "Fail", static (request, context) =>
            throw new RpcException((GrpcStatusCode)request.StatusCode, request.Detail));

        app.MapGrpcUnary<EchoRequest, EchoReply>(Service, "Throw", static (request, context) =>
            throw new InvalidOperationException("Secret server detail."));

        app.MapGrpcUnary<EchoRequest, EchoReply>(Service, "Wait", async (request, context) =>
        {
            try
            {
                await Task.Delay(Timeout.Infinite, context.CancellationToken);
            }
            catch (OperationCanceledException)
            {
                WaitCanceled.GetOrAdd(request.Message, _ => new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).TrySetResult();
                throw;
            }

            return new EchoReply();
        });

        app.MapGrpcUnary<EchoRequest, EchoReply>(Service, "Hop", async (request, context) =>
        {
            var threadName = Thread.CurrentThread.Name ?? string.Empty;
            Record(request.Message, "handler");

            // Resumes on a pool thread: the response must still arrive after the handler leaves the hop thread.
            await Task.Yield();
            return new EchoReply { Message = request.Message, ThreadName = threadName };
        });

        app.MapGrpcUnary<EchoRequest, EchoReply>(Service, "Context", static (request, context) => Task.FromResult(new EchoReply
        {
            Message = context.Method,
            DeadlineTicks = context.Deadline.Ticks,
        }));

        app.MapGrpcHealth();

        app.MapPost("/plain.Service/Unavailable", static context =>
        {
            context.Response.StatusCode = StatusCodes.Status503ServiceUnavailable;
            return Task.CompletedTask;
        });
    }

    /// <summary>Records "name:before" and "name:after" around the rest of the pipeline.</summary>
    private sealed class RecordingInterceptor(string name, GrpcServerFixture fixture) : IServerInterceptor
    {
        public async Task<TResponse> UnaryServerHandler<TRequest, TResponse>(TRequest request, ServerCallContext context, UnaryServerMethod<TRequest, TResponse> continuation)
            where TRequest : class
            where TResponse : class
        {
            if (context.Method != HopMethod || request is not EchoRequest echo)
            {
                return await continuation(request, context);
            }

            fixture.Record(echo.Message, name + ":before");
            var response = await continuation(request, context);
            fixture.Record(echo.Message, name + ":after");
            return response;
        }
    }

    /// <summary>Runs the rest of the Hop method's pipeline on a dedicated thread and hands its result back.</summary>
    private sealed class ThreadHopInterceptor(GrpcServerFixture fixture) : IServerInterceptor
    {
        public Task<TResponse> UnaryServerHandler<TRequest, TResponse>(TRequest request, ServerCallContext context, UnaryServerMethod<TRequest, TResponse> continuation)
            where TRequest : class
            where TResponse : class
        {
            if (context.Method != HopMethod || request is not EchoRequest echo)
            {
                return continuation(request, context);
            }

            fixture.Record(echo.Message, "hop:before");
            var result = new TaskCompletionSource<TResponse>(TaskCreationOptions.RunContinuationsAsynchronously);
            var thread = new Thread(() =>
            {
                try
                {
                    // The dedicated thread blocks until the handler is done, as a custom scheduler's worker would.
                    var response = continuation(request, context).GetAwaiter().GetResult();
                    fixture.Record(echo.Message, "hop:after");
                    result.SetResult(response);
                }
                catch (Exception ex)
                {
                    result.SetException(ex);
                }
            })
            {
                IsBackground = true,
                Name = HopThreadName,
            };
            thread.Start();
            return result.Task;
        }
    }
}
